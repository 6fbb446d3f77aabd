"""A measurement table's samples, case by case: the per-operation times of each case key, in the
order the samples were taken (sample 0 first), rows whose `status` is not "ok" left out (Argon2
cells a library refused hold no timing)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from phpcb.data.schema import SAMPLE, Measure

STATUS_COLUMN = "status"
OK = "ok"

KeyValue = str | int | float | bool


def per_case(table: pa.Table, key: Sequence[str], measure: Measure) -> dict[tuple[KeyValue, ...], np.ndarray]:
    """Each case's per-operation times, cases in the order the table first lists them."""
    if table.num_rows == 0:
        return {}
    table = table.select(_columns_read(table, key, measure))  # the sort below moves these columns only
    if STATUS_COLUMN in table.column_names:
        table = table.filter(pc.equal(table[STATUS_COLUMN], OK))
    if SAMPLE in table.column_names:
        # A stable sort: sample r of every case in round r, and the cases in their table order.
        table = table.take(pc.sort_indices(table, [(SAMPLE, "ascending")]))
    time = pc.cast(table[measure.time], pa.float64())
    per_op = time if measure.iterations is None else pc.divide(time, pc.cast(table[measure.iterations], pa.float64()))
    columns = {name: table[name] for name in key}
    grouped = (
        pa.table({**columns, "__per_op": per_op})
        .group_by(list(key), use_threads=False)
        .aggregate([("__per_op", "list")])
    )
    # Each case's times sliced out of the lists' values as numbers, never made Python floats on the way.
    lists = grouped["__per_op_list"].combine_chunks()
    values, offsets = lists.values.to_numpy(zero_copy_only=False), lists.offsets.to_numpy()
    keys = [grouped[name].to_pylist() for name in key]
    return {tuple(column[i] for column in keys): values[offsets[i] : offsets[i + 1]].copy() for i in range(len(lists))}


def _columns_read(table: pa.Table, key: Sequence[str], measure: Measure) -> list[str]:
    read = [*key, measure.time, *([] if measure.iterations is None else [measure.iterations]), STATUS_COLUMN, SAMPLE]
    return [name for name in dict.fromkeys(read) if name in table.column_names]
