//! `cargo run -p derive-only`: hand-written records in Hadoop's three formats.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    derive_only::run(&mut std::io::stdout().lock())
}
