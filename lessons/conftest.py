# `make site` writes the built course (executed copies of every lesson) into lessons/_build/;
# pytest must not collect those notebooks as lessons of their own.
collect_ignore = ["_build"]
