#!/usr/bin/python3
"""bench/ipc data: N rows x 30 string columns of 20 random lower-case letters (the seed's IPC
study), deterministic (random.Random(seed)), as one Turtle file both stores import, plus the
bench ontology (one class, a row number and 30 single-valued string properties) in Tracker's
ontology format, which Quarry reads too.

Usage: gen_rows.py --rows N --seed S --turtle FILE --ontology FILE
Each row: <urn:row:K> a bench:Row ; bench:n K ; bench:c00 "..." ; ... ; bench:c29 "..." .
"""
import argparse
import random
import string

COLUMNS = 30
LENGTH = 20
PREFIXES = """@prefix bench: <http://example.org/bench#> .
@prefix nrl: <http://tracker.api.gnome.org/ontology/v3/nrl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
"""


def ontology():
    lines = [PREFIXES,
             'bench: a nrl:Namespace, nrl:Ontology ;\n\tnrl:prefix "bench" ;\n'
             '\tnrl:lastModified "2026-12-01T00:00:00Z" .\n',
             "bench:Row a rdfs:Class ;\n\trdfs:subClassOf rdfs:Resource .\n",
             "bench:n a rdf:Property ;\n\trdfs:domain bench:Row ;\n\trdfs:range xsd:integer ;\n"
             "\tnrl:maxCardinality 1 ;\n\tnrl:indexed true .\n"]
    for c in range(COLUMNS):
        lines.append(f"bench:c{c:02d} a rdf:Property ;\n\trdfs:domain bench:Row ;\n"
                     "\trdfs:range xsd:string ;\n\tnrl:maxCardinality 1 .\n")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turtle", required=True)
    parser.add_argument("--ontology", required=True)
    args = parser.parse_args()
    with open(args.ontology, "w") as out:
        out.write(ontology())
    rng = random.Random(args.seed)
    letters = string.ascii_lowercase
    with open(args.turtle, "w") as out:
        out.write('@prefix bench: <http://example.org/bench#> .\n')
        for k in range(args.rows):
            values = " ; ".join(
                f'bench:c{c:02d} "{"".join(rng.choices(letters, k=LENGTH))}"'
                for c in range(COLUMNS))
            out.write(f"<urn:row:{k}> a bench:Row ; bench:n {k} ; {values} .\n")


if __name__ == "__main__":
    main()
