//! [`FloatTextOption`]: `--float-text legacy|shortest`, which JDK's `Double.toString` the
//! CSV and XML that a command writes print floats and doubles as; the same flag for `rcc
//! convert` and `rcc sql --to records`.

use clap::{Args, ValueEnum};
use hadoop_record::archive::FloatText;

/// `--float-text`: the float text of CSV and XML output.
///
/// ```
/// use hadoop_record::archive::FloatText;
/// use hadoop_record_cli::float_text::FloatTextOption;
/// assert_eq!(FloatTextOption::default().get(), FloatText::Legacy);
/// let shortest = FloatTextOption::new(FloatText::Shortest);
/// assert_eq!(shortest.get(), FloatText::Shortest);
/// assert!(shortest.only_for_text(true, "--to csv or xml").is_ok());
/// assert!(FloatTextOption::default().only_for_text(false, "--to csv or xml").is_ok());
/// assert_eq!(
///     shortest.only_for_text(false, "--to csv or xml").unwrap_err(),
///     "--float-text applies to Hadoop CSV and XML output (--to csv or xml)"
/// );
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Args)]
pub struct FloatTextOption {
    /// Floats and doubles in CSV and XML output as Java prints them: legacy (JDK 8 to 18,
    /// which Hadoop clusters run; the default) or shortest (JDK 19 and later)
    ///
    /// Java's Double.toString and Float.toString changed in JDK 19: about 5% of values print
    /// differently (1.0E-323 before, 9.9E-324 after). Input is read in either
    #[arg(long = "float-text", value_enum, value_name = "JDK")]
    float_text: Option<Choice>,
}

/// The values of `--float-text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Choice {
    /// JDK 8 to 18's text, which Hadoop clusters write (the default)
    Legacy,
    /// JDK 19 and later's: the shortest decimal that reads back to the same value
    Shortest,
}

impl FloatTextOption {
    /// The option given as `float_text`.
    pub fn new(float_text: FloatText) -> Self {
        let choice = match float_text {
            FloatText::Legacy => Choice::Legacy,
            FloatText::Shortest => Choice::Shortest,
        };
        FloatTextOption {
            float_text: Some(choice),
        }
    }

    /// The float text to write: the one given, or [`FloatText::Legacy`].
    pub fn get(self) -> FloatText {
        match self.float_text {
            None | Some(Choice::Legacy) => FloatText::Legacy,
            Some(Choice::Shortest) => FloatText::Shortest,
        }
    }

    /// Refuses `--float-text` given when the output is not Hadoop's CSV or XML
    /// (`csv_or_xml` false), where it would change nothing: JSON keeps its own text, binary,
    /// jute, Parquet and Arrow hold floats as bits. `how` says how to ask for CSV or XML:
    /// `--to csv or xml`.
    pub fn only_for_text(self, csv_or_xml: bool, how: &str) -> Result<(), String> {
        match self.float_text {
            Some(_) if !csv_or_xml => Err(format!(
                "--float-text applies to Hadoop CSV and XML output ({how})"
            )),
            _ => Ok(()),
        }
    }
}
