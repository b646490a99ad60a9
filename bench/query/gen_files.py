#!/usr/bin/python3
"""Writes the bench/query file corpus: folders, files and the text documents stored in them.

The shape the file miner leaves in a store (TRACKER3-BASELINE.md points 9-11), in the default
graph:
  folders    <file:///bench/dNNNN> a nfo:FileDataObject, nfo:Folder ; nie:url ; nfo:fileName ;
             nfo:fileLastModified
  files      <file:///bench/dNNNN/fNNNNNNN.txt> a nfo:FileDataObject ; nie:url ; nfo:fileName ;
             nfo:fileSize ; nfo:fileLastModified ; nfo:belongsToContainer <its folder>
  documents  <urn:bench:doc:K> a nfo:PlainTextDocument ; nie:isStoredAs <a file> ;
             nie:plainTextContent "a few hundred words"
Folder d0000 (the "target" folder, for the miner's mtime query) holds exactly --target-files
files; the other files are spread at random over the other folders (~300 per folder). Every
--n/--docs-th file has a document. Document words come from a deterministic list of made-up
lower-case ASCII words (so every full-text tokenizer splits them alike) with a Zipf-like
distribution; FTS_WORD, a mid-frequency word, is what the fts:match query looks for.

Output: the same layout as bench/import/gen_music.py's `sparql` format (a `# gen_files ...`
comment line, PREFIX lines, one INSERT DATA with one resource per line), so
bench/import/tracker_import.py's chunked loader reads it; cut into files of at most
--part-size resources (OUT-001.rq, OUT-002.rq, ...), each a complete update. A JSON manifest
(OUT.json) names the target folder, the fts word, how many documents contain it and the counts.
Byte-for-byte deterministic for the same arguments. Run with /usr/bin/python3.
"""

import argparse
import datetime
import json
import os
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree for the sibling imports
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "import"))
import gen_music  # noqa: E402  (bench/import: PREFIXES and the string escaping)

SYLLABLES = ["ka", "lo", "mi", "ren", "tu", "sa", "vor", "pel", "dun", "ix", "qua", "bre",
             "ston", "ell", "mar", "nu", "tha", "gor", "fi", "zan"]
VOCABULARY = 4000
FTS_RANK = 300  # rank of the searched word: in a few percent of the documents
MTIME_START = int(datetime.datetime(2015, 1, 1, tzinfo=datetime.timezone.utc).timestamp())
MTIME_END = int(datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc).timestamp())


def vocabulary():
    """VOCABULARY distinct words of 2-4 syllables, in a fixed order (rank 0 most frequent)."""
    rng = random.Random(7)
    words, seen = [], set()
    while len(words) < VOCABULARY:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def folder_of_files(rng, n_files, n_folders, target_files):
    """folder index for each file: the first target_files in folder 0, the rest at random."""
    others = n_folders - 1
    return [0] * target_files + [1 + rng.randrange(others) for _ in range(n_files - target_files)]


def mtime(rng):
    stamp = datetime.datetime.fromtimestamp(rng.randrange(MTIME_START, MTIME_END),
                                            datetime.timezone.utc)
    return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")


def folder_iri(k):
    return "file:///bench/d%04d" % k


def file_name(i):
    return "f%07d.txt" % i


def statements(args, manifest):
    """Yields one statement per resource: folders, then files, then documents."""
    rng = random.Random(args.seed)
    words = vocabulary()
    weights = [1.0 / (rank + 1) for rank in range(len(words))]
    cum, total = [], 0.0
    for w in weights:
        total += w
        cum.append(total)
    n_folders = max(2, args.n // 300)
    for k in range(n_folders):
        iri = folder_iri(k)
        yield ("<%s> a nfo:FileDataObject , nfo:Folder ; nie:url %s ; nfo:fileName %s ; "
               "nfo:fileLastModified \"%s\"^^xsd:dateTime .") % (
            iri, gen_music.rdf_string(iri), gen_music.rdf_string("d%04d" % k), mtime(rng))
    folders = folder_of_files(rng, args.n, n_folders, args.target_files)
    step = max(1, args.n // args.docs) if args.docs else 0
    doc_files = []
    for i, folder in enumerate(folders):
        iri = "%s/%s" % (folder_iri(folder), file_name(i))
        if step and i % step == step // 2 and len(doc_files) < args.docs:
            doc_files.append(iri)
        yield ("<%s> a nfo:FileDataObject ; nie:url %s ; nfo:fileName %s ; nfo:fileSize %d ; "
               "nfo:fileLastModified \"%s\"^^xsd:dateTime ; nfo:belongsToContainer <%s> .") % (
            iri, gen_music.rdf_string(iri), gen_music.rdf_string(file_name(i)),
            rng.randint(100, 5000000), mtime(rng), folder_iri(folder))
    fts_word, fts_docs = words[FTS_RANK], 0
    for k, iri in enumerate(doc_files):
        text = rng.choices(words, cum_weights=cum, k=rng.randint(200, 400))
        fts_docs += fts_word in text
        yield ("<urn:bench:doc:%d> a nfo:PlainTextDocument ; nie:isStoredAs <%s> ; "
               "nie:plainTextContent %s .") % (k, iri, gen_music.rdf_string(" ".join(text)))
    manifest.update({"files": args.n, "folders": n_folders, "documents": len(doc_files),
                     "target_folder": folder_iri(0), "target_files": args.target_files,
                     "fts_word": fts_word, "fts_documents": fts_docs})


def triples(line):
    """Triples in one generated statement: every ';' and ',' adds one to the first."""
    outside = line.split('"')[0::2]  # the text outside string literals
    return 1 + sum(part.count(";") + part.count(",") for part in outside)


def write_parts(args, manifest):
    part, lines, n_triples, paths = 0, [], 0, []

    def flush():
        nonlocal part
        part += 1
        path = "%s-%03d.rq" % (args.output, part)
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            out.write("# gen_files part=%d resources=%d\n" % (part, len(lines)))
            for prefix, iri in gen_music.PREFIXES:
                out.write("PREFIX %s: <%s>\n" % (prefix, iri))
            out.write("INSERT DATA {\n")
            out.writelines(line + "\n" for line in lines)
            out.write("}\n")
        paths.append(path)
        lines.clear()

    for line in statements(args, manifest):
        lines.append(line)
        n_triples += triples(line)
        if len(lines) == args.part_size:
            flush()
    if lines:
        flush()
    manifest.update({"triples": n_triples, "parts": [os.path.basename(p) for p in paths]})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=300000, help="files (default 300000)")
    parser.add_argument("--docs", type=int, default=20000,
                        help="files with a text document (default 20000)")
    parser.add_argument("--target-files", type=int, default=1000,
                        help="files in the target folder d0000 (default 1000)")
    parser.add_argument("--part-size", type=int, default=100000,
                        help="resources per output file (default 100000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--output", "-o", required=True,
                        help="output prefix: writes PREFIX-001.rq ... and PREFIX.json")
    args = parser.parse_args()
    if args.n < 2 or not 0 < args.target_files < args.n:
        parser.error("need --n >= 2 and 0 < --target-files < --n")
    if not 0 <= args.docs <= args.n or args.part_size < 1:
        parser.error("need 0 <= --docs <= --n and --part-size >= 1")
    manifest = {"seed": args.seed}
    write_parts(args, manifest)
    with open(args.output + ".json", "w", encoding="utf-8") as out:
        json.dump(manifest, out, indent=1, sort_keys=True)
        out.write("\n")
    print("gen_files %s" % " ".join("%s=%s" % (k, manifest[k]) for k in
                                    ("files", "folders", "documents", "triples", "fts_word",
                                     "fts_documents")), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
