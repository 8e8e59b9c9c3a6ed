#!/usr/bin/env python3
"""atomcheck.py - checks an Atom 1.0 feed document against RFC 4287.

    python3 tests/atomcheck.py FILE      (FILE "-" reads standard input)

Exits 0 and prints "ok: N entries" if the document is a valid Atom Feed
Document; else exits 1 and prints every problem found, one a line, on
standard error (2 for a usage error).  Python's standard library only.

What it checks (section numbers of RFC 4287):
  - well-formed XML; the root is atom:feed in the Atom namespace (1.2, 4.1.1)
  - the children each element may have and how many of each (4.1.1,
    4.1.2): exactly one id, title, updated; at most one of generator,
    icon, logo, rights, subtitle, content, published, source, summary;
    no element of the Atom namespace where none is allowed
  - an author for the feed, or for every entry (4.1.1, 4.1.2)
  - an entry without content has an alternate link; an entry whose
    content is not inline text or markup has a summary (4.1.2)
  - at most one alternate link per type and hreflang (4.1.1, 4.1.2)
  - person constructs: one name, at most one uri and email (3.2)
  - text constructs: type text, html or xhtml; no child elements in
    text and html; one xhtml:div in xhtml (3.1)
  - dates: RFC 3339 date-time with upper-case T and Z, and real
    dates and times (3.3)
  - ids: absolute IRIs without fragment-breaking characters; urn:uuid
    and tag: URIs in their own syntax (4.2.6)
  - links: an href, a rel that is a registered name or an absolute IRI,
    a media type in type, a number in length (4.2.7)
  - entries repeating an id do so with different updated times (4.1.1)
"""
import re
import sys
import xml.etree.ElementTree as ET

ATOM = "http://www.w3.org/2005/Atom"
XHTML = "http://www.w3.org/1999/xhtml"

# Children of feed, entry and source: name -> (min, max); None is "many".
FEED = {"author": (0, None), "category": (0, None),
        "contributor": (0, None), "generator": (0, 1), "icon": (0, 1),
        "id": (1, 1), "link": (0, None), "logo": (0, 1),
        "rights": (0, 1), "subtitle": (0, 1), "title": (1, 1),
        "updated": (1, 1), "entry": (0, None)}
ENTRY = {"author": (0, None), "category": (0, None), "content": (0, 1),
         "contributor": (0, None), "id": (1, 1), "link": (0, None),
         "published": (0, 1), "rights": (0, 1), "source": (0, 1),
         "summary": (0, 1), "title": (1, 1), "updated": (1, 1)}
SOURCE = dict(FEED, id=(0, 1), title=(0, 1), updated=(0, 1))
del SOURCE["entry"]
PERSON = {"name": (1, 1), "uri": (0, 1), "email": (0, 1)}

TEXT_CONSTRUCTS = ("title", "subtitle", "summary", "rights")
DATE_CONSTRUCTS = ("updated", "published")
PERSON_CONSTRUCTS = ("author", "contributor")
LINK_RELS = ("alternate", "related", "self", "enclosure", "via")

DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})"
                     r"(\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$")
SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
UUID_RE = re.compile(r"^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-"
                     r"[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
TAG_RE = re.compile(r"^tag:([A-Za-z0-9.-]+|[^@\s]+@[A-Za-z0-9.-]+),"
                    r"\d{4}(-\d{2}(-\d{2})?)?:[^\s#]*(#[^\s]*)?$")
URN_RE = re.compile(r"^urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:\S+$", re.I)
MEDIA_RE = re.compile(r"^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+"
                      r"(\s*;\s*[A-Za-z0-9!#$&^_.+-]+=\S+)*$")
# Characters an IRI never holds as such (RFC 3987: they must be
# percent-encoded): space, controls, and these.
IRI_BAD = re.compile(r'[\x00-\x20\x7f<>"{}|\\^`]')


class Checker:
    """Collects problems while walking the document."""

    def __init__(self):
        self.problems = []

    def bad(self, where, what):
        self.problems.append(f"{where}: {what}")

    # ---- values ---------------------------------------------------------

    def date(self, where, text):
        """RFC 3339 date-time (section 3.3): the syntax, then the values."""
        m = DATE_RE.match(text or "")
        if not m:
            self.bad(where, f"not an RFC 3339 date-time: {text!r}")
            return
        y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
        leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
        days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                31]
        if not 1 <= mo <= 12 or not 1 <= d <= days[mo - 1]:
            self.bad(where, f"no such day: {text!r}")
        if h > 23 or mi > 59 or s > 60:
            self.bad(where, f"no such time: {text!r}")
        if m.group(9) and (int(m.group(10)) > 23 or int(m.group(11)) > 59):
            self.bad(where, f"no such offset: {text!r}")

    def iri(self, where, text, absolute):
        """An IRI (reference): no characters IRIs cannot hold; absolute
        ones have a scheme and no fragment-only or relative form."""
        if text is None or text == "":
            if absolute:
                self.bad(where, "empty IRI")
            return
        if IRI_BAD.search(text):
            self.bad(where, f"character not allowed in an IRI: {text!r}")
        if text.count("#") > 1:
            self.bad(where, f"more than one '#' in an IRI: {text!r}")
        if not absolute:
            return
        if not SCHEME_RE.match(text):
            self.bad(where, f"not an absolute IRI (no scheme): {text!r}")
            return
        scheme = text.split(":", 1)[0].lower()
        if scheme == "urn":
            if text.lower().startswith("urn:uuid:"):
                if not UUID_RE.match(text):
                    self.bad(where, f"malformed urn:uuid: {text!r}")
            elif not URN_RE.match(text):
                self.bad(where, f"malformed URN: {text!r}")
        elif scheme == "tag":
            if not TAG_RE.match(text):
                self.bad(where, f"malformed tag URI (RFC 4151): {text!r}")
        elif scheme in ("http", "https"):
            if not re.match(r"^https?://[^/?#]+", text, re.I):
                self.bad(where, f"http IRI without a host: {text!r}")

    # ---- constructs -----------------------------------------------------

    def children(self, el, where, allowed):
        """Counts the Atom children of el against allowed; returns them
        by local name."""
        found = {}
        for c in el:
            if not isinstance(c.tag, str):
                continue
            if c.tag.startswith("{" + ATOM + "}"):
                name = c.tag[len(ATOM) + 2:]
                if name not in allowed:
                    self.bad(where, f"atom:{name} is not allowed here")
                    continue
                found.setdefault(name, []).append(c)
            elif not c.tag.startswith("{"):
                self.bad(where, f"element <{c.tag}> outside any namespace")
        for name, (lo, hi) in allowed.items():
            n = len(found.get(name, []))
            if n < lo:
                self.bad(where, f"atom:{name} is missing")
            if hi is not None and n > hi:
                self.bad(where, f"{n} atom:{name} elements, at most {hi}")
        return found

    def text(self, el, where):
        """A text construct (3.1)."""
        kind = el.get("type", "text")
        kids = [c for c in el if isinstance(c.tag, str)]
        if kind in ("text", "html"):
            if kids:
                self.bad(where, f"type {kind} must not hold elements")
        elif kind == "xhtml":
            if len(kids) != 1 or kids[0].tag != "{%s}div" % XHTML:
                self.bad(where, "type xhtml must hold one xhtml:div")
        else:
            self.bad(where, f"type must be text, html or xhtml: {kind!r}")

    def person(self, el, where):
        """A person construct (3.2)."""
        found = self.children(el, where, PERSON)
        for n in found.get("name", []):
            if not (n.text or "").strip():
                self.bad(where, "empty atom:name")
        for u in found.get("uri", []):
            self.iri(where + "/uri", (u.text or "").strip(), False)

    def link(self, el, where):
        """atom:link (4.2.7)."""
        href = el.get("href")
        if href is None:
            self.bad(where, "atom:link without href")
        else:
            self.iri(where + "@href", href, False)
        rel = el.get("rel", "alternate")
        if rel not in LINK_RELS and not SCHEME_RE.match(rel):
            self.bad(where, f"rel is neither a registered name nor an "
                            f"IRI: {rel!r}")
        elif rel not in LINK_RELS:
            self.iri(where + "@rel", rel, True)
        if el.get("type") is not None and not MEDIA_RE.match(el.get("type")):
            self.bad(where, f"type is not a media type: {el.get('type')!r}")
        if el.get("length") is not None and \
                not re.fullmatch(r"\d+", el.get("length")):
            self.bad(where, f"length is not a number: {el.get('length')!r}")

    def alternates(self, links, where):
        """At most one alternate link per (type, hreflang)."""
        seen = set()
        for l in links:
            if l.get("rel", "alternate") != "alternate":
                continue
            key = (l.get("type"), l.get("hreflang"))
            if key in seen:
                self.bad(where, f"two alternate links with type {key[0]!r}"
                                f" and hreflang {key[1]!r}")
            seen.add(key)

    def common(self, found, where):
        """What feed, entry and source share: ids, dates, texts, people,
        links."""
        for i in found.get("id", []):
            self.iri(where + "/id", (i.text or "").strip(), True)
            if i.text != (i.text or "").strip():
                self.bad(where + "/id", "spaces around the id")
        for name in DATE_CONSTRUCTS:
            for d in found.get(name, []):
                self.date(where + "/" + name, (d.text or "").strip())
        for name in TEXT_CONSTRUCTS:
            for t in found.get(name, []):
                self.text(t, where + "/" + name)
        for name in PERSON_CONSTRUCTS:
            for k, p in enumerate(found.get(name, [])):
                self.person(p, f"{where}/{name}[{k + 1}]")
        for k, l in enumerate(found.get("link", [])):
            self.link(l, f"{where}/link[{k + 1}]")
        self.alternates(found.get("link", []), where)
        for name in ("icon", "logo"):
            for e in found.get(name, []):
                self.iri(where + "/" + name, (e.text or "").strip(), False)
        for g in found.get("generator", []):
            if g.get("uri") is not None:
                self.iri(where + "/generator@uri", g.get("uri"), False)

    def content(self, el, where):
        """atom:content (4.1.3); returns 1 if it needs a summary."""
        kind = el.get("type", "text")
        kids = [c for c in el if isinstance(c.tag, str)]
        if el.get("src") is not None:
            self.iri(where + "@src", el.get("src"), False)
            if (el.text or "").strip() or kids:
                self.bad(where, "content with src must be empty")
            return 1
        if kind in ("text", "html", "xhtml"):
            self.text(el, where)
            return 0
        if not MEDIA_RE.match(kind):
            self.bad(where, f"type is not a media type: {kind!r}")
            return 0
        # Other media types: XML ones inline, text/* as text, the rest
        # base64 (and then a summary is required).
        base = kind.split(";")[0].strip().lower()
        xmlish = base.endswith("+xml") or base.endswith("/xml")
        return 0 if xmlish or base.startswith("text/") else 1

    def entry(self, el, where, feed_authors):
        found = self.children(el, where, ENTRY)
        self.common(found, where)
        source_authors = any(
            s.find("{%s}author" % ATOM) is not None
            for s in found.get("source", []))
        if not found.get("author") and not feed_authors and \
                not source_authors:
            self.bad(where, "no atom:author here nor in the feed")
        contents = found.get("content", [])
        needs_summary = 0
        for c in contents:
            needs_summary |= self.content(c, where + "/content")
        if needs_summary and not found.get("summary"):
            self.bad(where, "content that is not inline needs a summary")
        if not contents and not any(
                l.get("rel", "alternate") == "alternate"
                for l in found.get("link", [])):
            self.bad(where, "no content, so an alternate link is required")
        for s in found.get("source", []):
            self.common(self.children(s, where + "/source", SOURCE),
                        where + "/source")
        ids = found.get("id", [])
        ups = found.get("updated", [])
        return ((ids[0].text or "").strip() if ids else None,
                (ups[0].text or "").strip() if ups else None)

    def feed(self, root):
        if root.tag != "{%s}feed" % ATOM:
            self.bad("/", f"the root is {root.tag}, not atom:feed in "
                          f"namespace {ATOM}")
            return 0
        found = self.children(root, "feed", FEED)
        self.common(found, "feed")
        entries = found.get("entry", [])
        seen = set()
        for k, e in enumerate(entries):
            key = self.entry(e, f"feed/entry[{k + 1}]",
                             bool(found.get("author")))
            if key[0] is not None and key in seen:
                self.bad(f"feed/entry[{k + 1}]", f"id {key[0]} repeated "
                         "with the same updated time")
            seen.add(key)
        return len(entries)


def main(argv):
    if len(argv) != 2:
        print("usage: atomcheck.py FILE|-", file=sys.stderr)
        return 2
    try:
        data = sys.stdin.buffer.read() if argv[1] == "-" else \
            open(argv[1], "rb").read()
    except OSError as e:
        print(f"atomcheck: {e}", file=sys.stderr)
        return 2
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        print(f"atomcheck: not well-formed XML: {e}", file=sys.stderr)
        return 1
    c = Checker()
    n = c.feed(root)
    if c.problems:
        for p in c.problems:
            print(f"atomcheck: {p}", file=sys.stderr)
        return 1
    print(f"ok: {n} entries")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
