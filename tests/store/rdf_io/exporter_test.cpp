// Exporting as Turtle and TriG: grouping, implied types left out, escaping, graphs, and the
// round trip import(export(db)) == db.
#include <doctest/doctest.h>

#include "tests/store/rdf_io/rdf_io_test_util.h"

namespace quarry::testing {
namespace {

using engine::rdf_io::ExportFormat;

const std::string kExportPrefixes =
    "@prefix ex: <http://example.org/ex#> .\n"
    "@prefix nrl: <http://tracker.api.gnome.org/ontology/v3/nrl#> .\n"
    "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n";

// Every value type, a multi-valued property, a blank node, text that needs escaping.
const std::string kSample = kTurtlePrefixes + R"(
<urn:s2> a ex:Song ; ex:title "Zebra \"quoted\"\nline\\" ; ex:track 2 ; ex:rating 0.25 ;
  ex:favourite false ; ex:created "2024-05-01T10:00:00+02:00"^^xsd:dateTime ;
  ex:released "2024-05-01"^^xsd:date ; ex:genre "pop", "rock", "Lied"@de ; ex:performer _:p .
_:p a ex:Artist ; ex:name "Anonymous" ; ex:member <urn:a1> .
<urn:a1> a ex:Artist ; ex:name "Ärger" .
<urn:s1> a ex:Song, ex:Artist ; ex:title "One" ; ex:size 123 .
)";

TEST_CASE("Turtle export: grouped by subject, most specific types only, escaped") {
  RdfIoStore store;
  store.ImportOk("sample.ttl", kSample);
  CHECK(store.Export() == kExportPrefixes + R"(
<urn:a1>
	a ex:Artist ;
	ex:name "Ärger" .

<urn:s1>
	a ex:Artist ,
		ex:Song ;
	ex:title "One" ;
	ex:size 123 .

<urn:s2>
	a ex:Song ;
	ex:title """Zebra "quoted"
line\\""" ;
	ex:created "2024-05-01T10:00:00+02:00"^^xsd:dateTime ;
	ex:rating "0.25"^^xsd:double ;
	ex:favourite false ;
	ex:released "2024-05-01"^^xsd:date ;
	ex:track 2 ;
	ex:performer _:b1 ;
	ex:genre "pop" ,
		"rock" ,
		"Lied"@de .

_:b1
	a ex:Artist ;
	ex:name "Anonymous" ;
	ex:member <urn:a1> .
)");
}

TEST_CASE("TriG export writes every graph, Turtle the default graph or one graph") {
  RdfIoStore store;
  store.ImportOk("graphs.trig", kTurtlePrefixes + R"(
<urn:s0> a ex:Song ; ex:title "default" .
<urn:g2> { <urn:s2> a ex:Song ; ex:title "two" . }
<urn:g1> { <urn:s1> a ex:Song ; ex:title "one" . <urn:s0> ex:track 5 . }
)");
  CHECK(store.Export() == kExportPrefixes + R"(
<urn:s0>
	a ex:Song ;
	ex:title "default" .
)");
  CHECK(store.Export(ExportFormat::kTurtle, "urn:g1") == kExportPrefixes + R"(
<urn:s0>
	ex:track 5 .

<urn:s1>
	a ex:Song ;
	ex:title "one" .
)");
  CHECK(store.Export(ExportFormat::kTrig) == kExportPrefixes + R"(
<urn:s0>
	a ex:Song ;
	ex:title "default" .

<urn:g1> {
	 <urn:s0>
		ex:track 5 .

<urn:s1>
		a ex:Song ;
		ex:title "one" .

 }
<urn:g2> {
	 <urn:s2>
		a ex:Song ;
		ex:title "two" .

 }
)");
}

TEST_CASE("export of an unknown graph fails, an empty store exports only prefixes") {
  RdfIoStore store;
  CHECK(store.Export() == kExportPrefixes);
  std::ostringstream out;
  engine::rdf_io::ExportOptions options;
  options.graph = "urn:nowhere";
  const auto stats = engine::rdf_io::ExportRdf(store->database(), store->ontology(), options, out);
  REQUIRE_FALSE(stats.ok());
  CHECK(stats.error().code() == Errc::kNotFound);
  CHECK(out.str().empty());
}

TEST_CASE("round trip: importing an export into a fresh store exports the same text") {
  RdfIoStore first;
  first.ImportOk("sample.ttl", kSample);
  first.ImportOk("graphs.trig", kTurtlePrefixes + R"(
<urn:g1> { <urn:s1> ex:genre "g1 genre" . _:x a ex:Artist ; ex:name "in g1" . }
)");
  // Deleting leaves gaps in the IDs; the export must not depend on them.
  first.Update(kPrefixes + "INSERT DATA { <urn:gone> a ex:Song ; ex:title \"gone\" }");
  first.Update(kPrefixes + "DELETE DATA { <urn:gone> ex:title \"gone\" ; a ex:Song }");
  for (const ExportFormat format : {ExportFormat::kTurtle, ExportFormat::kTrig}) {
    CAPTURE(static_cast<int>(format));
    const std::string exported = first.Export(format);
    RdfIoStore second;
    second.ImportOk(format == ExportFormat::kTrig ? "export.trig" : "export.ttl", exported);
    CHECK(second.Export(format) == exported);
  }
}

}  // namespace
}  // namespace quarry::testing
