#!/usr/bin/python3
# Tracker 3.4's local connection (libtracker-sparql, python3-gi) on the phonebook contacts
# (issue 7): the same operations as phonebook_bench, written as natural Tracker SPARQL.
# Usage: tracker_phonebook.py CONTACTS.json DBDIR   -> TSV rows like phonebook_bench.
import json
import resource
import sys
import time

import gi

gi.require_version("Tracker", "3.0")
from gi.repository import Gio, Tracker  # noqa: E402

PREFIXES = ("PREFIX nco: <http://tracker.api.gnome.org/ontology/v3/nco#> "
            "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ")


def lit(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def contact_sparql(c):
    iri = "<urn:contact:%s>" % c["uid"]
    parts = ["%s a nco:PersonContact ; nco:contactUID %s ; nco:fullname %s ; nco:nameFamily %s ;"
             " nco:nameGiven %s" % (iri, lit(c["uid"]), lit(c["fn"]), lit(c["family"]), lit(c["given"]))]
    if c["birthday"]:
        parts.append(' ; nco:birthDate "%sT00:00:00Z"^^xsd:dateTime' % c["birthday"])
    for note in c["notes"]:
        parts.append(" ; nco:note %s" % lit(note))
    triples = []
    for k, email in enumerate(c["emails"]):
        m = "<urn:contact:%s#e%d>" % (c["uid"], k)
        parts.append(" ; nco:hasEmailAddress %s" % m)
        triples.append("%s a nco:EmailAddress ; nco:emailAddress %s ." % (m, lit(email)))
    for k, phone in enumerate(c["phones"]):
        m = "<urn:contact:%s#t%d>" % (c["uid"], k)
        parts.append(" ; nco:hasPhoneNumber %s" % m)
        triples.append("%s a nco:PhoneNumber ; nco:phoneNumber %s ." % (m, lit(phone)))
    a = "<urn:contact:%s#a>" % c["uid"]
    parts.append(" ; nco:hasPostalAddress %s" % a)
    triples.append("%s a nco:PostalAddress ; nco:streetAddress %s ; nco:locality %s ; nco:postalcode %s ."
                   % (a, lit(c["street"]), lit(c["city"]), lit(c["postcode"])))
    o = "<urn:contact:%s#aff>" % c["uid"]
    parts.append(" ; nco:hasAffiliation %s" % o)
    triples.append("%s a nco:Affiliation ; nco:title %s ." % (o, lit(c["title"] or "-")))
    return "".join(parts) + " .\n" + "\n".join(triples) + "\n"


WHOLE = (PREFIXES + "SELECT ?c ?uid ?fn ?family ?given ?bday ?title ?street "
         "(GROUP_CONCAT(?email; separator=',') AS ?emails) "
         "(GROUP_CONCAT(?phone; separator=',') AS ?phones) WHERE {{ "
         "?c a nco:PersonContact ; nco:contactUID ?uid . {sel} "
         "OPTIONAL {{ ?c nco:fullname ?fn }} OPTIONAL {{ ?c nco:nameFamily ?family }} "
         "OPTIONAL {{ ?c nco:nameGiven ?given }} OPTIONAL {{ ?c nco:birthDate ?bday }} "
         "OPTIONAL {{ ?c nco:hasAffiliation/nco:title ?title }} "
         "OPTIONAL {{ ?c nco:hasPostalAddress/nco:streetAddress ?street }} "
         "OPTIONAL {{ ?c nco:hasEmailAddress/nco:emailAddress ?email }} "
         "OPTIONAL {{ ?c nco:hasPhoneNumber/nco:phoneNumber ?phone }} }} GROUP BY ?c")


def count_rows(cursor):
    n = 0
    while cursor.next(None):
        n += 1
    cursor.close()
    return n


def timed(repeat, body):
    start = time.perf_counter()
    results = 0
    for i in range(repeat):
        results = body(i)
    return (time.perf_counter() - start) / repeat * 1e6, results


def main():
    contacts = json.load(open(sys.argv[1]))
    n = len(contacts)
    conn = Tracker.SparqlConnection.new(Tracker.SparqlConnectionFlags.NONE,
                                        Gio.File.new_for_path(sys.argv[2]),
                                        Tracker.sparql_get_ontology_nepomuk(), None)

    def row(op, micros, unit, results):
        print("tracker3.4\tlocal\t%d\t%s\t%.2f\t%s\t%d" % (n, op, micros, unit, results), flush=True)

    start = time.perf_counter()
    batch = conn.create_batch()
    for k in range(0, n, 200):
        batch.add_sparql(PREFIXES + "INSERT DATA {\n" + "".join(contact_sparql(c) for c in contacts[k:k + 200]) + "}")
    batch.execute(None)
    row("save_batch", (time.perf_counter() - start) / n * 1e6, "per contact", n)
    # nco:emailAddress is unique in Tracker (inverse functional): the extra contacts get new ones.
    extra = [dict(c, uid=c["uid"] + "-x", emails=["x" + e for e in c["emails"]]) for c in contacts[:100]]
    t, _ = timed(len(extra), lambda i: conn.update(PREFIXES + "INSERT DATA {" + contact_sparql(extra[i]) + "}", None))
    row("save_one", t, "per contact", len(extra))

    q = lambda sel: WHOLE.format(sel=sel)
    t, r = timed(3 if n >= 3200 else 10, lambda i: count_rows(conn.query(q(""), None)))
    row("fetch_all", t, "per query", r)
    step = 7919
    one = conn.query_statement(q("FILTER (?uid = ~uid)"), None)

    def fetch_one(i):
        one.bind_string("uid", contacts[i * step % n]["uid"])
        return count_rows(one.execute(None))
    t, r = timed(200, fetch_one)
    row("fetch_one", t, "per query", r)
    for size in (10, 100):
        lists = [[contacts[(r_ * size + k) * step % n]["uid"] for k in range(size)] for r_ in range(20)]
        t, r = timed(20, lambda i: count_rows(conn.query(q("FILTER (?uid IN (%s))" % ",".join(lit(u) for u in lists[i])), None)))
        row("fetch_%d" % size, t, "per query", r)
    w = contacts[n // 2]
    digits = "".join(ch for ch in w["phones"][0] if ch.isdigit())[-7:]
    filters = [
        ("prefix_short", "?c nco:nameFamily ?f0 FILTER (STRSTARTS(LCASE(?f0), %s))" % lit(w["family"][:2].lower())),
        ("prefix_long", "?c nco:nameFamily ?f0 FILTER (STRSTARTS(LCASE(?f0), %s))" % lit(w["family"].lower())),
        ("suffix", "?c nco:nameFamily ?f0 FILTER (STRENDS(LCASE(?f0), %s))" % lit(w["family"][2:].lower())),
        ("email", "?c nco:hasEmailAddress/nco:emailAddress %s" % lit(w["emails"][0])),
        ("phone_suffix", "?c nco:hasPhoneNumber/nco:phoneNumber ?p0 FILTER (STRENDS(REPLACE(?p0, \"[^0-9]\", \"\"), %s))" % lit(digits)),
    ]
    for name, sel in filters:
        t, r = timed(20, lambda i: count_rows(conn.query(q(sel), None)))
        row(name, t, "per query", r)
    row("client_peak_rss_kib", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "KiB", 0)
    conn.close()


if __name__ == "__main__":
    main()
