"""One module per client family. Each exposes ``VARIANTS`` and ``open_client(variant, target)``.

``open_client`` is an async context manager yielding ``call(tool, arguments) -> str`` (the first text
content of the tool's answer). The harness in ``bench._run`` times it; every driver runs in its own
subprocess so its CPU and RSS are its own.
"""
