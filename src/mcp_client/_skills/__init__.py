"""The Agent Skills extension: skills a server serves, loaded and verified."""
