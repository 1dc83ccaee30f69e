"""The form schema: a requestedSchema parsed into one normalized model, its formats, and tools' output
schemas.
"""
