"""gunicorn's settings for this service (gunicorn reads ./gunicorn.conf.py from the directory it starts in;
`cosmic serve` sets the same). Command-line flags still win.

limit_request_line: gunicorn refuses a request line over 4094 bytes with an HTML page of its own,
which no client of this API can read as a problem document. The app refuses long URLs itself
(414 problem+json, app/__init__.py), so gunicorn's limit is lifted.
"""

limit_request_line = 0
