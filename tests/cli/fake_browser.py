"""A stand-in for the system browser, for ``$BROWSER``: open the URL, follow its redirects, print the page.

Used by the login tests: the login page redirects straight back to the client's loopback listener,
as a real browser would after the person clicked "Allow". Loopback URLs only.
"""

import sys
from urllib.parse import urlsplit

import httpx

url = sys.argv[1]
assert urlsplit(url).hostname in ("127.0.0.1", "localhost"), url
response = httpx.get(url, follow_redirects=True, timeout=20)
print(f"fake browser: HTTP {response.status_code} at {urlsplit(str(response.url)).path}", file=sys.stderr)
