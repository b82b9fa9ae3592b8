"""The review workbench (issue 23): `sleuth serve CASE` in a browser.

`app.create_app(store, token=...)` is the Starlette app on one open case: the review queue
(`/review`), persons (`/person/{id}`) and the source viewer (`/snapshot/{id}?start=&end=`),
every page through the privacy Censor and every decision through `sleuth.pipeline.review`,
the operations `sleuth review` runs. `safety` guards it (loopback, token, CSRF).
"""
