//! Hadoop's XML encoding (`XmlRecordOutput` / `XmlRecordInput`).
//!
//! An XML-RPC-like layout: every value sits in a `<value>` element; a record is a
//! `<struct>` of `<member>`s, each with a `<name>` and a `<value>`; vectors and maps are
//! `<array>`s (a map's keys and values alternate); primitives are `<ex:i1>`, `<boolean>`,
//! `<i4>`, `<ex:i8>`, `<ex:float>`, `<double>` and `<string>` (buffers too, as hex). Each
//! top-level record is its own root element followed by a line feed.
//!
//! ```
//! use hadoop_record::archive::xml::{XmlInput, XmlOutput};
//! use hadoop_record::{RecordInput, RecordOutput};
//!
//! let mut out = XmlOutput::new(Vec::new());
//! out.start_record("").unwrap();
//! out.write_string("a<b & 50% \u{1F600}", "s").unwrap();
//! out.end_record("").unwrap();
//! let xml = out.into_inner().unwrap();
//! assert!(String::from_utf8_lossy(&xml).contains("<string>a&lt;b &amp; 50%0025 %D83D%DE00</string>"));
//!
//! let mut input = XmlInput::new(&xml[..]);
//! input.start_record("").unwrap();
//! assert_eq!(input.read_string("s").unwrap(), "a<b & 50% \u{1F600}");
//! input.end_record("").unwrap();
//! assert!(input.at_end().unwrap());
//! ```

mod elem;
mod escape;
mod input;
mod lexer;
mod output;

pub use input::XmlInput;
pub use output::XmlOutput;
