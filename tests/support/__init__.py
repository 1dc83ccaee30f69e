"""Helpers shared by the test suite: starting real test-peer servers and their pytest fixtures."""
