"""table_reader: every declared type and constraint, checked per column, names the first bad row."""

import pyarrow as pa
import pytest

from phpcb.data.schema import Field, TableSchema
from phpcb.data.table_reader import read_table
from phpcb.errors import DataError

SCHEMA = TableSchema(
    name="t.csv",
    experiment="t",
    description="",
    fields=(
        Field("name", "string", {"required": True, "pattern": "[a-z][a-z0-9-]{0,7}", "maxLength": 6}),
        Field("mode", "string", {"required": True, "enum": ["a", "b"]}),
        Field("note", "string", {"required": True, "minLength": 1}),
        Field("sample", "integer", {"required": True, "minimum": 0, "maximum": 9}),
        Field("rate", "number", {"required": True, "exclusiveMinimum": 0}),
        Field("ok", "boolean", {"required": True, "enum": [True]}, ("true",), ("false",)),
    ),
    primary_key=("name", "mode", "sample"),
    measure=None,
)
HEADER = "name,mode,note,sample,rate,ok\n"
GOOD = ["abc,a,x,0,1.5,true", "abc,a,x,1,2e3,true", 'abc,b,"two, words",0,.5,true']


def write(tmp_path, *rows, header=HEADER):
    path = tmp_path / "t.csv"
    path.write_text(header + "".join(row + "\n" for row in rows), encoding="utf-8")
    return path


def refused(path):
    with pytest.raises(DataError) as caught:
        read_table(path, SCHEMA)
    return caught.value


def test_a_good_file_gives_typed_columns(tmp_path):
    table = read_table(write(tmp_path, *GOOD), SCHEMA)
    assert table.schema.types == [pa.string(), pa.string(), pa.string(), pa.int64(), pa.float64(), pa.bool_()]
    assert table["rate"].to_pylist() == [1.5, 2000.0, 0.5]
    assert table["note"].to_pylist() == ["x", "x", "two, words"]
    assert table["ok"].to_pylist() == [True, True, True]


@pytest.mark.parametrize(
    ("row", "column", "message"),
    [
        ("abc,a,x,1.0,1,true", "sample", "expected integer, got '1.0'"),
        ("abc,a,x,+1,1,true", "sample", "expected integer, got '+1'"),
        ("abc,a,x,99999999999999999999,1,true", "sample", "99999999999999999999 is out of range"),
        ("abc,a,x,10,1,true", "sample", "10 is greater than the maximum of 9"),
        ("abc,a,x,-1,1,true", "sample", "-1 is less than the minimum of 0"),
        ("abc,a,x,1,0,true", "rate", "0.0 is less than or equal to the minimum of 0"),
        ("abc,a,x,1,fast,true", "rate", "expected number, got 'fast'"),
        ("abc,c,x,1,1,true", "mode", "'c' is not one of ['a', 'b']"),
        ("Abc,a,x,1,1,true", "name", "'Abc' does not match '[a-z][a-z0-9-]{0,7}'"),
        ("abc-1234,a,x,1,1,true", "name", "'abc-1234' is too long"),
        ("abc,a,,1,1,true", "note", "'' is too short"),
        ("abc,a,x,1,1,yes", "ok", "expected true or false, got 'yes'"),
        ("abc,a,x,1,1,false", "ok", "False is not one of [True]"),
    ],
)
def test_each_violation_names_its_row_and_column(tmp_path, row, column, message):
    error = refused(write(tmp_path, *GOOD, row))
    assert (error.row, error.column, error.detail) == (5, column, message)


def test_the_pattern_must_match_the_whole_value_as_in_table_schema(tmp_path):
    error = refused(write(tmp_path, "abc!,a,x,0,1,true"))
    assert error.column == "name"


def test_the_first_bad_row_is_named_whichever_column_it_is_in(tmp_path):
    error = refused(write(tmp_path, "abc,a,x,0,1,true", "abc,a,x,1,-1,true", "abc,z,x,2,1,true"))
    assert (error.row, error.column) == (3, "rate")


def test_rows_are_file_lines_even_after_a_value_spanning_lines(tmp_path):
    error = refused(write(tmp_path, 'abc,a,"line one\nline two",0,1,true', "abc,a,x,1,1,maybe"))
    assert (error.row, error.column) == (4, "ok")


def test_duplicates_compare_typed_values(tmp_path):
    error = refused(write(tmp_path, "abc,a,x,1,1,true", "abc,a,y,01,2,true"))
    assert (error.row, error.detail) == (3, "the same case and sample appear twice")


def test_a_short_row_is_named_unless_an_earlier_row_is_bad(tmp_path):
    error = refused(write(tmp_path, *GOOD, "abc,a,x"))
    assert (error.row, error.detail) == (5, "expected 6 fields, got 3")
    earlier = refused(write(tmp_path, "abc,a,x,0,0,true", "abc,a,x"))
    assert (earlier.row, earlier.column) == (2, "rate")


def test_a_wrong_header_is_row_one(tmp_path):
    error = refused(write(tmp_path, *GOOD, header="name,mode,note,sample,rate\n"))
    assert error.row == 1
    assert "expected header" in error.detail


def test_bytes_that_are_not_utf8_are_named(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes(HEADER.encode() + b"abc,a,\xff,0,1,true\n")
    error = refused(path)
    assert (error.row, error.column, error.detail) == (2, "note", "not UTF-8")


def test_an_empty_file_and_a_missing_file_are_named(tmp_path):
    assert refused(write(tmp_path, header="")).detail == "empty file: expected a header row"
    assert "file missing" in refused(tmp_path / "absent.csv").detail


OPTIONAL = TableSchema(
    name="o.csv",
    experiment="o",
    description="",
    fields=(
        Field("name", "string", {"required": True}),
        Field("faults", "integer", {"required": False, "minimum": 0}),
    ),
    primary_key=("name",),
    measure=None,
)


def test_a_field_that_is_not_required_reads_an_empty_value_as_missing(tmp_path):
    path = write(tmp_path, "a,", "b,3", header="name,faults\n")
    assert read_table(path, OPTIONAL)["faults"].to_pylist() == [None, 3]
    assert OPTIONAL.missing_values == [""]
    assert SCHEMA.missing_values == []


@pytest.mark.parametrize(
    ("row", "column", "message"),
    [
        ("c,-1", "faults", "-1 is less than the minimum of 0"),
        ("c,many", "faults", "expected integer, got 'many'"),
        (",1", "name", "a value is required, got ''"),  # missingValues [""] applies to every field
    ],
)
def test_a_missing_value_is_still_checked_where_one_is_given_or_required(tmp_path, row, column, message):
    with pytest.raises(DataError) as caught:
        read_table(write(tmp_path, "a,", row, header="name,faults\n"), OPTIONAL)
    assert (caught.value.row, caught.value.column, caught.value.detail) == (3, column, message)


def test_without_missing_values_an_empty_string_is_a_value(tmp_path):
    table = read_table(write(tmp_path, "abc,a,x,0,1.5,true"), SCHEMA)
    assert table["note"].to_pylist() == ["x"]
    assert read_table(write(tmp_path, "abc,a,,0,1.5,true", header=HEADER), SCHEMA_EMPTY_NOTE)["note"].to_pylist() == [
        ""
    ]


SCHEMA_EMPTY_NOTE = TableSchema(
    name="t.csv",
    experiment="t",
    description="",
    fields=tuple(Field(f.name, f.type, {"required": True}, f.true_values, f.false_values) for f in SCHEMA.fields),
    primary_key=SCHEMA.primary_key,
    measure=None,
)
