"""What a Client connects with: the Transport contract, building a transport from options, HTTP
options, reconnecting, telemetry.
"""
