"""The language-model generator: prompt, agent, search tool and the citation check."""
