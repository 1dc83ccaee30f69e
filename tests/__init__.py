"""Test suite package (lets tests import the shared helpers as `tests.support`)."""
