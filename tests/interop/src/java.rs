//! The real Hadoop record runtime as a test peer: Maven fetches `hadoop-common` 2.10.2
//! (`java/pom.xml`), Hadoop's own rcc generates Java classes for the test schemas, javac
//! compiles them with our driver, and one JVM answers a whole [`Batch`].

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use hadoop_record::schema::{RecordId, Schema};

use crate::batch::{Answer, Batch};
use crate::tools::{self, content_key, files_below, locked, require, run, run_batch, say};

/// A JDK: its home and feature version (17, 25, …).
#[derive(Debug, Clone)]
pub struct Jdk {
    pub home: PathBuf,
    pub feature: u32,
}

impl Jdk {
    /// `bin/java`
    pub fn java(&self) -> PathBuf {
        self.home.join("bin/java")
    }

    /// `bin/javac`
    pub fn javac(&self) -> PathBuf {
        self.home.join("bin/javac")
    }

    /// Whether its `Double.toString`/`Float.toString` print what hadoop-record writes (the
    /// JDK 19+ digits; JDK 17 prints longer digits for some values).
    pub fn modern_float_text(&self) -> bool {
        self.feature >= 19
    }
}

const JDK_FIX: &str =
    "install a JDK and Maven (Debian: `apt-get install openjdk-17-jdk-headless maven`; \
     a JDK 19 or later, e.g. Temurin 25 under /usr/lib/jvm, is preferred), or point \
     HADOOP_RECORD_JAVA_HOME at a JDK";

/// The JDK the peers run on: `HADOOP_RECORD_JAVA_HOME` if set; otherwise the newest of
/// `JAVA_HOME`, the one `javac` on the `PATH` belongs to, and those under `/usr/lib/jvm`
/// (a newer JDK prints floats as hadoop-record does).
pub fn jdk() -> Jdk {
    if let Some(home) = std::env::var_os("HADOOP_RECORD_JAVA_HOME") {
        let home = PathBuf::from(home);
        return probe(&home).unwrap_or_else(|| {
            panic!(
                "HADOOP_RECORD_JAVA_HOME={} holds no JDK (bin/javac)",
                home.display()
            )
        });
    }
    let mut candidates: Vec<PathBuf> = Vec::new();
    candidates.extend(std::env::var_os("JAVA_HOME").map(PathBuf::from));
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            if let Ok(javac) = fs::canonicalize(dir.join("javac")) {
                candidates.extend(javac.ancestors().nth(2).map(Path::to_path_buf));
            }
        }
    }
    if let Ok(entries) = fs::read_dir("/usr/lib/jvm") {
        candidates.extend(entries.flatten().map(|e| e.path()));
    }
    candidates
        .iter()
        .filter_map(|home| probe(home))
        .max_by_key(|jdk| jdk.feature)
        .unwrap_or_else(|| {
            panic!(
                "no JDK was found (JAVA_HOME, javac on the PATH, /usr/lib/jvm), and the tests \
                 against Hadoop's Java implementation need one.\nFix: {JDK_FIX}\n\
                 (To skip these tests on a machine without it, set {}=1.)",
                tools::SKIP_VAR
            )
        })
}

/// The JDK at `home`, if it has a `javac`; its version from the `release` file.
fn probe(home: &Path) -> Option<Jdk> {
    if !home.join("bin/javac").is_file() || !home.join("bin/java").is_file() {
        return None;
    }
    let release = fs::read_to_string(home.join("release")).ok()?;
    let version = release
        .lines()
        .find_map(|l| l.strip_prefix("JAVA_VERSION="))?
        .trim_matches('"');
    let feature = version.split(['.', '-', '+']).next()?.parse().ok()?;
    Some(Jdk {
        home: fs::canonicalize(home).ok()?,
        feature,
    })
}

/// The class path Maven resolves for the project in `project_dir` (jars in `~/.m2`,
/// downloaded from Maven Central the first time), cached in `cache` until the pom changes.
pub fn maven_classpath(project_dir: &Path, cache: &Path) -> String {
    let pom = project_dir.join("pom.xml");
    let key = content_key(std::slice::from_ref(&pom), "");
    let file = cache.join(format!("classpath-{key}.txt"));
    if let Ok(cp) = fs::read_to_string(&file) {
        if std::env::split_paths(&cp).all(|jar| jar.is_file()) {
            return cp;
        }
    }
    let mvn = PathBuf::from("mvn");
    require(&mvn, "--version", JDK_FIX);
    say(&format!(
        "fetching the Java peer's jars with Maven ({})",
        pom.display()
    ));
    run(Command::new(mvn)
        .args(["-q", "-B", "-f"])
        .arg(&pom)
        .arg("dependency:build-classpath")
        .arg(format!("-Dmdep.outputFile={}", file.display())));
    fs::read_to_string(&file).unwrap_or_else(|e| panic!("reading {}: {e}", file.display()))
}

/// Compiles `sources` against `classpath` into `out`.
pub fn javac(jdk: &Jdk, sources: &[PathBuf], classpath: &str, out: &Path, lint: &[&str]) {
    let list = out.with_extension("sources");
    let quoted: Vec<String> = sources
        .iter()
        .map(|s| format!("\"{}\"", s.display()))
        .collect();
    fs::write(&list, quoted.join("\n")).expect("javac's source list");
    run(Command::new(jdk.javac())
        .args(lint)
        .args(["-encoding", "UTF-8", "-d"])
        .arg(out)
        .arg("-cp")
        .arg(classpath)
        .arg(format!("@{}", list.display())));
}

/// Hadoop 2.10.2's record runtime with classes its own rcc generated for a set of schemas.
pub struct HadoopPeer {
    jdk: Jdk,
    classpath: String,
    runs: PathBuf,
    schema: Schema,
    types: Vec<(String, RecordId)>,
}

/// The schemas the differential tests use: the Hadoop fixtures and the java_shapes set.
pub const SCHEMAS: &[&str] = &[
    "tests/fixtures/hadoop-java/composite.jr",
    "tests/fixtures/hadoop-java/prims.jr",
    "runtime/tests/data/java_shapes/shapes.jr",
];

impl HadoopPeer {
    /// The peer for [`SCHEMAS`], built on first use; `None` when the peer tests are skipped.
    pub fn get() -> Option<&'static HadoopPeer> {
        static PEER: OnceLock<Option<HadoopPeer>> = OnceLock::new();
        PEER.get_or_init(|| {
            if tools::skipped("the tests against Hadoop's Java record I/O") {
                return None;
            }
            let root = tools::repo_root();
            let files: Vec<PathBuf> = SCHEMAS.iter().map(|s| root.join(s)).collect();
            Some(HadoopPeer::build(&files))
        })
        .as_ref()
    }

    /// Generates, compiles and caches the peer for the DDL `files` (and what they include).
    pub fn build(files: &[PathBuf]) -> HadoopPeer {
        let model = hadoop_record_compiler::load(files, &Default::default())
            .unwrap_or_else(|d| panic!("the peer's schemas do not load:\n{d}"));
        let model_schema = model.to_schema();
        let types = model
            .records()
            .iter()
            .map(|r| {
                let name = r.qualified_name().to_string();
                let id = model_schema.find(&name).expect("a record of the model");
                (name, id)
            })
            .collect();
        let ddl: Vec<PathBuf> = model.files_read().map(Path::to_path_buf).collect();

        let jdk = jdk();
        let project = tools::repo_root().join("tests/interop/java");
        let work = tools::work_dir().join("hadoop");
        let (classpath, classes) = locked(&work, || {
            let jars = maven_classpath(&project, &work);
            let driver = files_below(&project.join("src/main/java"), ".java");
            let inputs: Vec<PathBuf> = ddl.iter().chain(&driver).cloned().collect();
            let dir = work.join(content_key(&inputs, &jdk.home.to_string_lossy()));
            let classes = dir.join("classes");
            if !dir.join("done").exists() {
                say(&format!(
                    "generating Java with Hadoop's rcc for {} DDL files and compiling it (JDK {})",
                    ddl.len(),
                    jdk.feature
                ));
                let _ = fs::remove_dir_all(&dir);
                let gen = dir.join("gen");
                fs::create_dir_all(&classes).expect("the peer's classes directory");
                for file in &ddl {
                    // Hadoop's rcc resolves includes against the working directory and writes
                    // classes for the named file only, so it runs once per file, in its folder.
                    run(Command::new(jdk.java())
                        .arg("-cp")
                        .arg(&jars)
                        .arg("org.apache.hadoop.record.compiler.generated.Rcc")
                        .args(["--language", "java", "--destdir"])
                        .arg(&gen)
                        .arg(file.file_name().expect("a DDL file name"))
                        .current_dir(file.parent().expect("a DDL folder")));
                }
                javac(&jdk, &driver, &jars, &classes, &["-Xlint:all", "-Werror"]);
                let generated = files_below(&gen, ".java");
                let cp = join_paths(&[classes.to_string_lossy().as_ref(), &jars]);
                javac(&jdk, &generated, &cp, &classes, &["-nowarn"]);
                fs::write(dir.join("done"), "").expect("the peer's stamp");
            }
            (jars, classes)
        });
        let runs = work.join("runs");
        fs::create_dir_all(&runs).expect("the peer's runs directory");
        HadoopPeer {
            classpath: join_paths(&[classes.to_string_lossy().as_ref(), &classpath]),
            jdk,
            runs,
            schema: model_schema.into_schema(),
            types,
        }
    }

    /// The JDK the peer runs on.
    pub fn jdk(&self) -> &Jdk {
        &self.jdk
    }

    /// Every record type of the peer's schemas, in the runtime schema.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Every record type: its qualified name (= Java class) and id in [`Self::schema`].
    pub fn types(&self) -> &[(String, RecordId)] {
        &self.types
    }

    /// Runs `batch` in one JVM. The request and response stay in `<target>/interop/hadoop/
    /// runs/<name>.{req,resp}` so that a failure can be replayed with
    /// `java -cp … hadooprecord.peer.Driver REQ RESP`.
    pub fn run(&self, name: &str, batch: &Batch) -> Vec<Answer> {
        let mut driver = Command::new(self.jdk.java());
        driver
            .arg("-cp")
            .arg(&self.classpath)
            .arg("hadooprecord.peer.Driver");
        let response = run_batch(&mut driver, &self.runs, name, batch.request());
        batch
            .answers(&response)
            .unwrap_or_else(|e| panic!("the Java driver's answer to {name}: {e}"))
    }

    /// Where [`Self::run`] keeps the request of the run `name`.
    pub fn request_path(&self, name: &str) -> PathBuf {
        self.runs.join(format!("{name}.req"))
    }
}

fn join_paths(parts: &[&str]) -> String {
    std::env::join_paths(parts.iter().flat_map(|p| std::env::split_paths(p)))
        .expect("a class path")
        .to_string_lossy()
        .into_owned()
}
