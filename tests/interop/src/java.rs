//! The real Hadoop record runtime as a test peer: Maven fetches `hadoop-common` 2.10.2
//! (`java/pom.xml`) or Hadoop 3's remnant (`java/hadoop3/pom.xml`), Hadoop's own rcc or ours
//! generates Java classes for the test schemas, javac compiles them with our driver, and one
//! JVM answers a whole [`Batch`].

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use hadoop_record::archive::FloatText;
use hadoop_record::schema::{RecordId, Schema};
use hadoop_record_compiler::backend::java::{self, JavaApi};

use crate::batch::{Answer, Batch};
use crate::tools::{self, content_key, files_below, locked, require, run, run_batch, say, try_run};

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

    /// `java -cp classpath`, to which the caller adds the class to run and its arguments.
    pub fn command(&self, classpath: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(self.java());
        command.arg("-cp").arg(classpath);
        command
    }

    /// `bin/javac`
    pub fn javac(&self) -> PathBuf {
        self.home.join("bin/javac")
    }

    /// The float text its `Double.toString`/`Float.toString` print: `Shortest` from JDK 19 on,
    /// `Legacy` before (JDK 17 prints longer digits for some values).
    pub fn float_text(&self) -> FloatText {
        if self.feature >= 19 {
            FloatText::Shortest
        } else {
            FloatText::Legacy
        }
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
    candidates()
        .into_iter()
        .max_by_key(|jdk| jdk.feature)
        .unwrap_or_else(|| no_jdk("Hadoop's Java implementation"))
}

/// The JDKs found in `JAVA_HOME`, where the `javac` on the `PATH` belongs, and under
/// `/usr/lib/jvm`.
fn candidates() -> Vec<Jdk> {
    let mut homes: Vec<PathBuf> = Vec::new();
    homes.extend(std::env::var_os("JAVA_HOME").map(PathBuf::from));
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            if let Ok(javac) = fs::canonicalize(dir.join("javac")) {
                homes.extend(javac.ancestors().nth(2).map(Path::to_path_buf));
            }
        }
    }
    if let Ok(entries) = fs::read_dir("/usr/lib/jvm") {
        homes.extend(entries.flatten().map(|e| e.path()));
    }
    homes.iter().filter_map(|home| probe(home)).collect()
}

fn no_jdk(what: &str) -> ! {
    panic!(
        "no JDK was found (JAVA_HOME, javac on the PATH, /usr/lib/jvm), and the tests against \
         {what} need one.\nFix: {JDK_FIX}\n(To skip these tests on a machine without it, set {}=1.)",
        tools::SKIP_VAR
    )
}

/// The JDK versions ZooKeeper 3.9 runs on (its documentation supports 8, 11, 17 and 21).
pub const ZOOKEEPER_JDKS: std::ops::RangeInclusive<u32> = 11..=21;

/// The JDK to run ZooKeeper on: `HADOOP_RECORD_ZOOKEEPER_JAVA_HOME` if set; otherwise the
/// newest JDK (found as [`jdk`] finds them) whose version is in [`ZOOKEEPER_JDKS`] — so JDK
/// 17 where Temurin 25 is also installed, which [`jdk`] would pick for Hadoop.
pub fn zookeeper_jdk() -> Jdk {
    newest_in(
        ZOOKEEPER_JDKS,
        "HADOOP_RECORD_ZOOKEEPER_JAVA_HOME",
        "ZooKeeper 3.9 (a JDK 11 to 21)",
    )
}

/// The JDK versions Hadoop 3.4's HDFS (MiniDFSCluster) runs on: 8, 11 and 17.
pub const HDFS_JDKS: std::ops::RangeInclusive<u32> = 8..=17;

/// The JDK to run HDFS on: `HADOOP_RECORD_HDFS_JAVA_HOME` if set; otherwise the newest JDK
/// in [`HDFS_JDKS`], found as [`jdk`] finds them.
pub fn hdfs_jdk() -> Jdk {
    newest_in(
        HDFS_JDKS,
        "HADOOP_RECORD_HDFS_JAVA_HOME",
        "HDFS 3.4 (a JDK 8 to 17)",
    )
}

/// The JDK in `var` if set, else the newest found whose version is in `versions`.
fn newest_in(versions: std::ops::RangeInclusive<u32>, var: &str, what: &str) -> Jdk {
    if let Some(home) = std::env::var_os(var) {
        let home = PathBuf::from(home);
        return probe(&home)
            .unwrap_or_else(|| panic!("{var}={} holds no JDK (bin/javac)", home.display()));
    }
    candidates()
        .into_iter()
        .filter(|jdk| versions.contains(&jdk.feature))
        .max_by_key(|jdk| jdk.feature)
        .unwrap_or_else(|| no_jdk(what))
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

/// The work directory and class path of the Maven project `tests/interop/java/<name>`'s
/// driver: the jars of its pom (fetched once) and the classes of its `src/main/java`,
/// compiled with `-Xlint:all -Werror` on `jdk` into `<target>/interop/<name>` (once per
/// content of the sources, jars and JDK; `what` names the driver in messages, e.g. "the jute
/// driver against ZooKeeper 3.9.5").
pub fn driver_classpath(jdk: &Jdk, name: &str, what: &str) -> (PathBuf, String) {
    let project = tools::repo_root().join("tests/interop/java").join(name);
    let work = tools::work_dir().join(name);
    let classpath = compile_driver(jdk, &project, &work, what);
    (work, classpath)
}

fn compile_driver(jdk: &Jdk, project: &Path, work: &Path, what: &str) -> String {
    let (jars, classes) = locked(work, || {
        let jars = maven_classpath(project, work);
        let sources = files_below(&project.join("src/main/java"), ".java");
        let dir = work.join(content_key(
            &sources,
            &format!("{}{jars}", jdk.home.display()),
        ));
        let classes = dir.join("classes");
        if !dir.join("done").exists() {
            say(&format!("compiling {what} (JDK {})", jdk.feature));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&classes).expect("the driver's classes directory");
            javac(jdk, &sources, &jars, &classes, &["-Xlint:all", "-Werror"])
                .unwrap_or_else(|e| panic!("{what} does not compile: {e}"));
            fs::write(dir.join("done"), "").expect("the driver's stamp");
        }
        (jars, classes)
    });
    std::env::join_paths(std::iter::once(classes).chain(std::env::split_paths(&jars)))
        .expect("a class path")
        .to_string_lossy()
        .into_owned()
}

/// Compiles `sources` against `classpath` into `out`; javac's complaints as the error.
pub fn javac(
    jdk: &Jdk,
    sources: &[PathBuf],
    classpath: &str,
    out: &Path,
    lint: &[&str],
) -> Result<(), String> {
    let list = out.with_extension("sources");
    let quoted: Vec<String> = sources
        .iter()
        .map(|s| format!("\"{}\"", s.display()))
        .collect();
    fs::write(&list, quoted.join("\n")).expect("javac's source list");
    try_run(
        Command::new(jdk.javac())
            .args(lint)
            .args(["-encoding", "UTF-8", "-d"])
            .arg(out)
            .arg("-cp")
            .arg(classpath)
            .arg(format!("@{}", list.display())),
    )
    .map(drop)
}

/// Which classes a [`JavaPeer`] runs, and on which Hadoop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classes {
    /// Generated by Hadoop 2.10.2's own rcc, run on hadoop-common 2.10.2 (`java/pom.xml`).
    HadoopRcc,
    /// Generated by our `rcc -l java` for the given API, run on the matching Hadoop
    /// (`java/pom.xml`, or `java/hadoop3/pom.xml` for hadoop-streaming 3.4.2).
    Ours(JavaApi),
}

impl Classes {
    /// A short name for logs and directories.
    pub fn name(self) -> &'static str {
        match self {
            Classes::HadoopRcc => "Hadoop's rcc",
            Classes::Ours(JavaApi::Hadoop2) => "our rcc (hadoop2 API)",
            Classes::Ours(JavaApi::Hadoop3) => "our rcc (hadoop3 API)",
        }
    }

    fn dir(self) -> &'static str {
        match self {
            Classes::HadoopRcc => "hadoop-rcc",
            Classes::Ours(JavaApi::Hadoop2) => "ours-hadoop2",
            Classes::Ours(JavaApi::Hadoop3) => "ours-hadoop3",
        }
    }

    fn maven_project(self) -> PathBuf {
        let java = tools::repo_root().join("tests/interop/java");
        match self {
            Classes::Ours(JavaApi::Hadoop3) => java.join("hadoop3"),
            _ => java,
        }
    }
}

/// A JVM peer: Hadoop's record runtime with record classes generated for a set of schemas,
/// and the driver (`java/src/main/java/hadooprecord/peer`).
pub struct JavaPeer {
    classes: Classes,
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

impl JavaPeer {
    /// Hadoop's own classes for [`SCHEMAS`]; `None` when the peer tests are skipped.
    pub fn hadoop() -> Option<&'static JavaPeer> {
        static PEER: OnceLock<Option<JavaPeer>> = OnceLock::new();
        Self::get(&PEER, Classes::HadoopRcc)
    }

    /// Our classes for [`SCHEMAS`] on Hadoop 2.10.2.
    pub fn ours() -> Option<&'static JavaPeer> {
        static PEER: OnceLock<Option<JavaPeer>> = OnceLock::new();
        Self::get(&PEER, Classes::Ours(JavaApi::Hadoop2))
    }

    /// Our classes for [`SCHEMAS`], generated for Hadoop 3's remnant and run on it.
    pub fn ours_hadoop3() -> Option<&'static JavaPeer> {
        static PEER: OnceLock<Option<JavaPeer>> = OnceLock::new();
        Self::get(&PEER, Classes::Ours(JavaApi::Hadoop3))
    }

    fn get(
        cell: &'static OnceLock<Option<JavaPeer>>,
        classes: Classes,
    ) -> Option<&'static JavaPeer> {
        let what = format!(
            "the tests of {} classes on Hadoop's Java record I/O",
            classes.name()
        );
        tools::once(cell, &what, || {
            let root = tools::repo_root();
            let files: Vec<PathBuf> = SCHEMAS.iter().map(|s| root.join(s)).collect();
            JavaPeer::build(&files, classes)
        })
    }

    /// Generates, compiles and caches a peer for the DDL `files` (and what they include).
    pub fn build(files: &[PathBuf], classes: Classes) -> JavaPeer {
        Self::try_build(files, classes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Self::build`], with javac's complaints about the generated classes as the error.
    pub fn try_build(files: &[PathBuf], classes: Classes) -> Result<JavaPeer, String> {
        // Every file read is a root: Hadoop's rcc generates classes only for the files it is
        // given, so each runs separately, and ours is given them all.
        let ddl: Vec<PathBuf> = hadoop_record_compiler::load(files, &Default::default())
            .unwrap_or_else(|d| panic!("the peer's schemas do not load:\n{d}"))
            .files_read()
            .map(Path::to_path_buf)
            .collect();
        let model = hadoop_record_compiler::load(&ddl, &Default::default())
            .unwrap_or_else(|d| panic!("the peer's schemas do not load:\n{d}"));
        let model_schema = model.to_schema();
        let java_names = match classes {
            Classes::HadoopRcc => model
                .records()
                .iter()
                .map(|r| r.qualified_name().to_string())
                .collect(),
            Classes::Ours(_) => java::qualified_names(&model),
        };
        let types = model
            .records()
            .iter()
            .zip(java_names)
            .map(|(r, class)| {
                (
                    class,
                    model_schema
                        .find(r.qualified_name())
                        .expect("a record of the model"),
                )
            })
            .collect();
        let generated = match classes {
            Classes::HadoopRcc => Vec::new(),
            Classes::Ours(api) => {
                let options = java::Options::default().with_api(api);
                java::generate(&model, &options)
                    .unwrap_or_else(|d| panic!("rcc -l java failed:\n{d}"))
            }
        };

        let jdk = jdk();
        let project = classes.maven_project();
        let work = tools::work_dir().join("java");
        let (jars, classes_dir) = locked(&work, || -> Result<(String, PathBuf), String> {
            let jars = maven_classpath(&project, &work.join(classes.dir()));
            let driver = files_below(
                &tools::repo_root().join("tests/interop/java/src/main/java"),
                ".java",
            );
            let inputs: Vec<PathBuf> = ddl.iter().chain(&driver).cloned().collect();
            let ours: String = generated.iter().map(|f| f.contents.as_str()).collect();
            let dir = work.join(classes.dir()).join(content_key(
                &inputs,
                &format!("{}{ours}{jars}", jdk.home.display()),
            ));
            let classes_dir = dir.join("classes");
            if !dir.join("done").exists() {
                say(&format!(
                    "generating Java with {} for {} DDL files and compiling it (JDK {})",
                    classes.name(),
                    ddl.len(),
                    jdk.feature
                ));
                let _ = fs::remove_dir_all(&dir);
                let gen = dir.join("gen");
                fs::create_dir_all(&classes_dir).expect("the peer's classes directory");
                javac(
                    &jdk,
                    &driver,
                    &jars,
                    &classes_dir,
                    &["-Xlint:all", "-Werror"],
                )
                .unwrap_or_else(|e| panic!("the driver does not compile: {e}"));
                let cp = join_paths(&[classes_dir.to_string_lossy().as_ref(), &jars]);
                match classes {
                    Classes::HadoopRcc => {
                        for file in &ddl {
                            // Hadoop's rcc resolves includes against the working directory, so
                            // it runs in each file's folder.
                            run(jdk
                                .command(&jars)
                                .arg("org.apache.hadoop.record.compiler.generated.Rcc")
                                .args(["--language", "java", "--destdir"])
                                .arg(&gen)
                                .arg(file.file_name().expect("a DDL file name"))
                                .current_dir(file.parent().expect("a DDL folder")));
                        }
                        let sources = files_below(&gen, ".java");
                        javac(&jdk, &sources, &cp, &classes_dir, &["-nowarn"])?;
                    }
                    Classes::Ours(_) => {
                        for f in &generated {
                            let path = gen.join(&f.path);
                            fs::create_dir_all(path.parent().expect("a package folder"))
                                .expect("the gen directory");
                            fs::write(&path, &f.contents).expect("a generated file");
                        }
                        // Ours must compile without a single warning.
                        let sources = files_below(&gen, ".java");
                        javac(
                            &jdk,
                            &sources,
                            &cp,
                            &classes_dir,
                            &["-Xlint:all", "-Werror"],
                        )?;
                    }
                }
                fs::write(dir.join("done"), "").expect("the peer's stamp");
            }
            Ok((jars, classes_dir))
        })?;
        let runs = work.join(classes.dir()).join("runs");
        fs::create_dir_all(&runs).expect("the peer's runs directory");
        Ok(JavaPeer {
            classes,
            classpath: join_paths(&[classes_dir.to_string_lossy().as_ref(), &jars]),
            jdk,
            runs,
            schema: model_schema.into_schema(),
            types,
        })
    }

    /// Which classes the peer runs.
    pub fn classes(&self) -> Classes {
        self.classes
    }

    /// Whether the peer's Hadoop has the CSV reader and the XML reader and writer (Hadoop 3's
    /// remnant has neither).
    pub fn has_text_formats(&self) -> bool {
        self.classes != Classes::Ours(JavaApi::Hadoop3)
    }

    /// The class path of the peer: its classes and Hadoop's jars.
    pub fn classpath(&self) -> &str {
        &self.classpath
    }

    /// The JDK the peer runs on.
    pub fn jdk(&self) -> &Jdk {
        &self.jdk
    }

    /// Every record type of the peer's schemas, in the runtime schema.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Every record type: its Java class and its id in [`Self::schema`].
    pub fn types(&self) -> &[(String, RecordId)] {
        &self.types
    }

    /// The Java class of the DDL record `module.Name`.
    pub fn class_of(&self, ddl_name: &str) -> &str {
        let id = self
            .schema
            .find(ddl_name)
            .unwrap_or_else(|| panic!("no record {ddl_name}"));
        self.types
            .iter()
            .find(|(_, i)| *i == id)
            .map(|(class, _)| class.as_str())
            .expect("every record has a class")
    }

    /// Runs `batch` in one JVM. The request stays in `<target>/interop/java/
    /// <peer>/runs/<name>.req` so that a failure can be replayed with
    /// `java -cp … hadooprecord.peer.Driver REQ RESP`.
    pub fn run(&self, name: &str, batch: &Batch) -> Vec<Answer> {
        let mut driver = self.jdk.command(&self.classpath);
        driver.arg("hadooprecord.peer.Driver");
        let response = run_batch(&mut driver, &self.runs, name, batch.request());
        batch
            .answers(&response)
            .unwrap_or_else(|e| panic!("the Java driver's answer to {name}: {e}"))
    }

    /// Where [`Self::run`] keeps the request of the run `name`.
    pub fn request_path(&self, name: &str) -> PathBuf {
        self.runs.join(format!("{name}.req"))
    }

    /// How to repeat the run `name` of random cases from `seed`, for a [`crate::report::Report`].
    pub fn reproduce(&self, seed: u64, name: &str) -> String {
        format!(
            "Repeat with HADOOP_RECORD_INTEROP_SEED={seed}; request: {}",
            self.request_path(name).display()
        )
    }
}

fn join_paths(parts: &[&str]) -> String {
    std::env::join_paths(parts.iter().flat_map(|p| std::env::split_paths(p)))
        .expect("a class path")
        .to_string_lossy()
        .into_owned()
}
