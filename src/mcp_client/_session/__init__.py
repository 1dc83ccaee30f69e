"""The session and what it answers: one request's path, the server's questions (elicitation, sampling,
roots), notifications and listening, deadlines.
"""
