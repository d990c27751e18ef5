"""Generated answers. One answer goes writer.py (generate, check, or fall back) → generator.py
(run the agent on the server) → agent.py (the passages, prompt.md and the search tool); server.py
is the model server (connecting to it, requests every server accepts, what it can do); check.py
checks every generated answer before a reader sees it."""
