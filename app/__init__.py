"""The HTTP service (Flask) and the ``cosmic`` command line."""
