//! `cargo run -p weblinks`: writes two `OutLinks` records in Hadoop's binary, CSV and XML
//! formats and reads them back.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    weblinks::run(&mut std::io::stdout().lock())
}
