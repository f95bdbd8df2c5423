# The service's image: this checkout installed once into Python 3.11; docker-compose.yml runs the
# API and the worker from it. Build:  docker build -t cosmic .

# The engine compiled with Cython (scripts/compile_engine.py), where a C compiler and the Python
# headers are at hand; the image below takes the engine folder from here, extension files included.
FROM python:3.11 AS compiled-engine
WORKDIR /srv/cosmic
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['compile']))" \
        > /tmp/compile.txt \
    && pip install --no-cache-dir -r /tmp/compile.txt
COPY engine ./engine
COPY scripts/compile_engine.py ./scripts/compile_engine.py
RUN python scripts/compile_engine.py

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

WORKDIR /srv/cosmic
# the dependencies first (read from pyproject.toml), so a change of code alone does not reinstall them
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt
COPY README.md openapi.yaml gunicorn.conf.py ./
COPY app ./app
COPY --from=compiled-engine /srv/cosmic/engine ./engine
COPY events ./events
COPY projections ./projections
COPY workers ./workers
# the code stays where it is (the API serves ./openapi.yaml); this adds the `cosmic` command
RUN pip install --no-deps -e . && useradd --system --no-create-home cosmic
USER cosmic
EXPOSE 8000
# gunicorn.conf.py's settings (app/servers.py): gevent workers, bounded requests, GET /metrics
CMD ["gunicorn", "--bind", "0.0.0.0:8000", "app.wsgi:app"]
