INSERT DATA { <urn:a> mfo:title "x" }
