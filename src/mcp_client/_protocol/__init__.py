"""The protocol eras and the wire: era strategies, negotiation, versions, JSON-RPC framing, wire names,
extensions, headers.
"""
