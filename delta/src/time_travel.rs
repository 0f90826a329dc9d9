//! [`TimeTravel`]: which version of a table is read, and the times users write for it.

use std::str::FromStr;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

/// How a table is read: its latest version, a version, or the version current at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimeTravel {
    /// The latest version.
    #[default]
    Latest,
    /// Version N.
    Version(u64),
    /// The latest version committed at or before this time.
    Timestamp(DateTime<Utc>),
}

impl TimeTravel {
    /// The version current at `text`, a time as Spark's `timestampAsOf` takes it: RFC 3339
    /// (`2026-12-07T10:00:00Z`, `…+01:00`), `2026-12-07 10:00:00[.fff]` or
    /// `2026-12-07T10:00:00` (UTC), or a date (its midnight, UTC).
    ///
    /// ```
    /// use hadoop_record_delta::TimeTravel;
    /// let at = TimeTravel::at_time("2026-12-07 10:00:00").unwrap();
    /// assert_eq!(at, TimeTravel::at_time("2026-12-07T11:00:00+01:00").unwrap());
    /// assert!(TimeTravel::at_time("yesterday").is_err());
    /// ```
    pub fn at_time(text: &str) -> Result<TimeTravel, String> {
        let text = text.trim();
        let time = DateTime::parse_from_rfc3339(text)
            .map(|t| t.with_timezone(&Utc))
            .ok()
            .or_else(|| {
                ["%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S%.f"]
                    .iter()
                    .find_map(|f| NaiveDateTime::parse_from_str(text, f).ok())
                    .or_else(|| {
                        NaiveDate::parse_from_str(text, "%Y-%m-%d")
                            .ok()
                            .and_then(|d| d.and_hms_opt(0, 0, 0))
                    })
                    .map(|t| t.and_utc())
            });
        time.map(TimeTravel::Timestamp).ok_or_else(|| {
            format!(
                "`{text}` is not a time: give 2026-12-07T10:00:00Z (RFC 3339), \
                 2026-12-07 10:00:00 (UTC) or 2026-12-07"
            )
        })
    }
}

impl FromStr for TimeTravel {
    type Err = String;

    /// `latest`, a version number, or a time ([`TimeTravel::at_time`]).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("latest") {
            return Ok(TimeTravel::Latest);
        }
        match s.parse::<u64>() {
            Ok(version) => Ok(TimeTravel::Version(version)),
            Err(_) => TimeTravel::at_time(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_read_as_spark_takes_them() {
        let ten = TimeTravel::Timestamp("2026-12-07T10:00:00Z".parse().unwrap());
        for text in [
            "2026-12-07T10:00:00Z",
            "2026-12-07T11:00:00+01:00",
            "2026-12-07 10:00:00",
            "2026-12-07T10:00:00.000",
            " 2026-12-07 10:00:00 ",
        ] {
            assert_eq!(TimeTravel::at_time(text).unwrap(), ten, "{text}");
        }
        let midnight = TimeTravel::Timestamp("2026-12-07T00:00:00Z".parse().unwrap());
        assert_eq!(TimeTravel::at_time("2026-12-07").unwrap(), midnight);
        assert_eq!("3".parse::<TimeTravel>().unwrap(), TimeTravel::Version(3));
        assert_eq!("latest".parse::<TimeTravel>().unwrap(), TimeTravel::Latest);
        let e = TimeTravel::at_time("12/07/2026").unwrap_err();
        assert!(e.contains("`12/07/2026` is not a time"), "{e}");
    }
}
