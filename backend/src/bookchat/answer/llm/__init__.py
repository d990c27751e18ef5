"""Generated answers: writer.py → generator.py → agent.py (and prompt.md), checked by check.py."""
