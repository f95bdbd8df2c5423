"""The WSGI entry point for gunicorn: ``gunicorn app.wsgi:app`` (configuration from the environment)."""

from app import create_app

app = create_app()
