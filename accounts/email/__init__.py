"""What the site writes to an account's email address, and when it may (confirm.py)."""
