"""Errors a user can cause, reported as one clear line by the CLI."""


class UserError(Exception):
    """Bad input from the user (a file, an argument, a device): the message says what and how to fix it."""
