"""Generated answers: writer.py (generate, check, or fall back) → generator.py (run the agent)
→ agent.py (passages, prompt, search tool); server.py connects; check.py checks each answer."""
