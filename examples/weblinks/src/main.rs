//! `cargo run -p weblinks`: writes two `OutLinks` records in Hadoop's binary, CSV and XML
//! formats and reads them back.
//!
//! `cargo run -p weblinks -- write FILE [binary|csv|xml]` writes the two records to FILE, and
//! `cargo run -p weblinks -- read FILE [binary|csv|xml]` reads records from FILE and prints
//! them: the C++ example (`examples/cpp-weblinks`) reads and writes such files.

use std::process::ExitCode;

use hadoop_record::Format;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [] => weblinks::run(&mut std::io::stdout().lock()),
        [command, file, rest @ ..] if rest.len() <= 1 => {
            match rest.first().map_or(Ok(Format::Binary), |f| f.parse()) {
                Ok(format) => match command.as_str() {
                    "write" => write(file, format),
                    "read" => read(file, format),
                    _ => Err(usage()),
                },
                Err(e) => Err(e.into()),
            }
        }
        _ => Err(usage()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> Box<dyn std::error::Error> {
    "usage: weblinks [write FILE [binary|csv|xml] | read FILE [binary|csv|xml]]".into()
}

fn write(file: &str, format: Format) -> Result<(), Box<dyn std::error::Error>> {
    let pages = weblinks::pages();
    std::fs::write(file, weblinks::write_all(&pages, format)?)?;
    println!("wrote {} records to {file}", pages.len());
    Ok(())
}

fn read(file: &str, format: Format) -> Result<(), Box<dyn std::error::Error>> {
    let pages = weblinks::read_all(&std::fs::read(file)?, format)?;
    println!("read {} records from {file}", pages.len());
    for page in &pages {
        println!("{page:?}");
    }
    Ok(())
}
