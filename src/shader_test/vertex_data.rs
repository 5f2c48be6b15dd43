//! The `[vertex data]` section: columns of per-vertex values bound to vertex shader
//! attributes by name (piglit's `piglit-vbo` format).
//!
//! ```text
//! piglit_vertex/float/2  color/float/3    # header: NAME/TYPE/COUNT per column
//! -1.0 -1.0              1.0 0.0 0.0      # one row per vertex
//! ```
//!
//! TYPE is `float`, `int` or `uint` (values read as C `strtod` / `strtol` /
//! `strtoul`); COUNT is 1 to 4. `#` starts a comment; blank lines are ignored.

use super::cursor::{Cursor, exact_integer, parse_float, parse_int, parse_uint};
use super::error::ParseError;
use super::parse::Line;

/// The value type of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    /// `float`.
    Float,
    /// `int`: an integer attribute takes the `i32` pattern under the extended
    /// profile; otherwise the value as a float (outside ±(2^24 − 1) an error).
    Int,
    /// `uint`: likewise, the `u32` pattern or the float value.
    Uint,
}

/// One attribute column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// The vertex shader attribute it feeds.
    pub name: String,
    /// Value type.
    pub ty: ColumnType,
    /// Components per vertex, 1..=4.
    pub count: u32,
}

/// The parsed `[vertex data]` section.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VertexData {
    /// Line of the header row.
    pub header_line: u32,
    /// The columns.
    pub columns: Vec<Column>,
    /// One row per vertex: the values of every column in column order.
    pub rows: Vec<Vec<f32>>,
    /// The rows again with int and uint values as the `f32` carriers of their 32-bit
    /// patterns: what an integer attribute reads under the extended profile.
    pub patterns: Vec<Vec<f32>>,
    /// The first int or uint value CSIR cannot hold exactly (outside ±(2^24 − 1)),
    /// with its line: an error when the test runs, not when it is parsed, so that a
    /// test skipped for another reason stays skipped. Its row holds the rounded value.
    pub out_of_range: Option<ParseError>,
}

impl VertexData {
    /// The values of column `column` for rows `first..first + count`, vertex after
    /// vertex (`count · columns[column].count` floats). The caller checks the rows
    /// exist.
    /// `patterns` takes int and uint values as 32-bit patterns
    /// ([`VertexData::patterns`]).
    pub fn column_values(
        &self,
        column: usize,
        first: usize,
        count: usize,
        patterns: bool,
    ) -> Vec<f32> {
        let start: usize = self.columns[..column]
            .iter()
            .map(|c| c.count as usize)
            .sum();
        let width = self.columns[column].count as usize;
        let rows = if patterns { &self.patterns } else { &self.rows };
        rows.iter()
            .skip(first)
            .take(count)
            .flat_map(|row| row[start..start + width].iter().copied())
            .collect()
    }
}

/// Parse the section's lines.
///
/// # Errors
/// A header column that is not `NAME/TYPE/COUNT` with a known type and a count of 1 to
/// 4, or a row whose values do not parse or do not fill every column.
pub fn parse(lines: &[Line<'_>]) -> Result<Option<VertexData>, ParseError> {
    let mut data: Option<VertexData> = None;
    for line in lines {
        let text = line.text.split('#').next().unwrap_or_default();
        if text.trim().is_empty() {
            continue;
        }
        match &mut data {
            None => {
                let columns = text
                    .split_whitespace()
                    .map(|h| column(h).map_err(|m| ParseError::new(line.number, m)))
                    .collect::<Result<Vec<_>, _>>()?;
                data = Some(VertexData {
                    header_line: line.number,
                    columns,
                    rows: Vec::new(),
                    patterns: Vec::new(),
                    out_of_range: None,
                });
            }
            Some(data) => {
                let (row, patterns, out_of_range) =
                    row(text, &data.columns).map_err(|m| ParseError::new(line.number, m))?;
                if let (None, Some(message)) = (&data.out_of_range, out_of_range) {
                    data.out_of_range = Some(ParseError::new(line.number, message));
                }
                data.rows.push(row);
                data.patterns.push(patterns);
            }
        }
    }
    Ok(data)
}

fn column(header: &str) -> Result<Column, String> {
    let bad = || {
        format!("vertex data column '{header}' is not NAME/TYPE/COUNT (e.g. piglit_vertex/float/2)")
    };
    let mut parts = header.split('/');
    let (Some(name), Some(ty), Some(count), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let ty = match ty {
        "float" => ColumnType::Float,
        "int" => ColumnType::Int,
        "uint" => ColumnType::Uint,
        _ => {
            return Err(format!(
                "vertex data column '{header}': type '{ty}' is not float, int or uint"
            ));
        }
    };
    let count = match count.parse::<u32>() {
        Ok(n @ 1..=4) => n,
        _ => {
            return Err(format!(
                "vertex data column '{header}': count '{count}' is not 1 to 4"
            ));
        }
    };
    if name.is_empty() {
        return Err(bad());
    }
    Ok(Column {
        name: name.to_string(),
        ty,
        count,
    })
}

/// The values of one row, as float values and with 32-bit patterns, and the message
/// for its first integer outside the range the seed's float registers hold exactly.
type Row = (Vec<f32>, Vec<f32>, Option<String>);

fn row(text: &str, columns: &[Column]) -> Result<Row, String> {
    let mut c = Cursor::new(text);
    let mut values = Vec::new();
    let mut patterns = Vec::new();
    let mut out_of_range = None;
    for column in columns {
        for i in 0..column.count {
            let found = c.found();
            let word = c.word().unwrap_or_default();
            let value = match column.ty {
                ColumnType::Float => parse_float(word).map(|f| (Ok(f), f)),
                ColumnType::Int => {
                    parse_int(word).map(|v| (exact_integer(v.into()), f32::from_bits(v as u32)))
                }
                ColumnType::Uint => {
                    parse_uint(word).map(|v| (exact_integer(v.into()), f32::from_bits(v)))
                }
            };
            let Some((value, pattern)) = value else {
                return Err(format!(
                    "vertex data column '{}' component {}: expected {}, found {found}",
                    column.name,
                    i + 1,
                    match column.ty {
                        ColumnType::Float => "a number",
                        ColumnType::Int => "an integer",
                        ColumnType::Uint => "an unsigned integer",
                    }
                ));
            };
            let value = value.unwrap_or_else(|e| {
                out_of_range.get_or_insert_with(|| {
                    format!(
                        "vertex data column '{}' component {}: {e}",
                        column.name,
                        i + 1
                    )
                });
                // Never drawn: the test stops with the error first.
                0.0
            });
            values.push(value);
            patterns.push(pattern);
        }
    }
    if !c.at_end() {
        return Err(format!(
            "vertex data row has more values than its {} columns hold: '{}'",
            columns.len(),
            c.rest()
        ));
    }
    Ok((values, patterns, out_of_range))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shader_test::parse::lines;

    fn parse_text(text: &str) -> Result<Option<VertexData>, ParseError> {
        let lines: Vec<_> = lines(text).collect();
        parse(&lines)
    }

    #[test]
    fn columns_and_rows() {
        let d = parse_text(
            "# comment\nvertex/float/2 index/int/1 # header\n-1 -1  0x10\n 1 -1 -3 # c\n\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(d.header_line, 2);
        assert_eq!(
            d.columns,
            vec![
                Column {
                    name: "vertex".into(),
                    ty: ColumnType::Float,
                    count: 2
                },
                Column {
                    name: "index".into(),
                    ty: ColumnType::Int,
                    count: 1
                }
            ]
        );
        assert_eq!(d.rows, vec![vec![-1.0, -1.0, 16.0], vec![1.0, -1.0, -3.0]]);
        assert_eq!(d.column_values(0, 1, 1, false), vec![1.0, -1.0]);
        assert_eq!(d.column_values(1, 0, 2, false), vec![16.0, -3.0]);
        let bits = |v: i32| f32::from_bits(v as u32);
        assert_eq!(
            d.column_values(1, 0, 2, true)
                .iter()
                .map(|f| f.to_bits())
                .collect::<Vec<_>>(),
            vec![bits(16).to_bits(), bits(-3).to_bits()]
        );
        assert_eq!(parse_text("\n# nothing\n").unwrap(), None);
    }

    #[test]
    fn integers_csir_cannot_hold_are_kept_for_the_run_to_report() {
        let d =
            parse_text("v/float/2 i/int/2\n1 2 16777215 -7\n1 2 3 0x69c54892\n1 2 -0x7fffffff 0\n")
                .unwrap()
                .unwrap();
        assert_eq!(d.rows.len(), 3, "parsing goes on");
        assert_eq!(d.rows[0], vec![1.0, 2.0, 16_777_215.0, -7.0]);
        assert_eq!(
            d.out_of_range.map(|e| e.to_string()).as_deref(),
            Some(
                "3: vertex data column 'i' component 2: 1774536850 is outside \
                 -16777215..=16777215 (2^24 - 1): CSIR keeps integers in float registers, \
                 exact only within that range"
            ),
            "the first one"
        );
    }

    #[test]
    fn bad_headers_and_rows_name_the_column() {
        let e = |t: &str| parse_text(t).unwrap_err().to_string();
        assert_eq!(
            e("vertex/double/2\n"),
            "1: vertex data column 'vertex/double/2': type 'double' is not float, int or uint"
        );
        assert_eq!(
            e("vertex/float/5\n"),
            "1: vertex data column 'vertex/float/5': count '5' is not 1 to 4"
        );
        assert_eq!(
            e("vertex\n"),
            "1: vertex data column 'vertex' is not NAME/TYPE/COUNT (e.g. piglit_vertex/float/2)"
        );
        assert_eq!(
            e("v/float/2 i/int/1\n1 2 x\n"),
            "2: vertex data column 'i' component 1: expected an integer, found 'x'"
        );
        assert_eq!(
            e("v/float/2\n1 2 3\n"),
            "2: vertex data row has more values than its 1 columns hold: '3'"
        );
        assert_eq!(
            e("v/float/2\n1\n"),
            "2: vertex data column 'v' component 2: expected a number, found the end of the line"
        );
    }
}
