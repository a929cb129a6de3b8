//! The crate as a Rust dependency: with `--no-default-features` it builds with no Fortran
//! compiler at all (the Rust API and the C library), and with the default feature
//! `fortran-modules` and no gfortran the build stops with one message saying what to do.
//!
//! Both builds run with a PATH holding every program of the test's PATH but gfortran, in a
//! target directory of their own (`target/crate-test`).

use std::env;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A directory of links to every program on PATH except gfortran's.
fn path_without_gfortran(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    let _ = fs::remove_dir_all(&bin);
    fs::create_dir_all(&bin).unwrap();
    let path = env::var_os("PATH").expect("PATH is set");
    for entry_dir in env::split_paths(&path) {
        let Ok(entries) = fs::read_dir(&entry_dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let text = name.to_string_lossy();
            if text.contains("gfortran") || bin.join(&name).exists() {
                continue;
            }
            let _ = symlink(entry.path(), bin.join(&name));
        }
    }
    assert!(
        Command::new("gfortran")
            .env("PATH", &bin)
            .arg("--version")
            .output()
            .is_err(),
        "gfortran is still found"
    );
    bin
}

fn cargo_build(bin: &Path, target: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO"))
        .args(["build", "--lib", "--manifest-path"])
        .arg(repo().join("Cargo.toml"))
        .args(args)
        .env("PATH", bin)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("CARGO_FEATURE_FORTRAN_INTEGER_8")
        .output()
        .expect("cargo runs")
}

#[test]
fn builds_without_gfortran_unless_the_modules_are_wanted() {
    let dir = repo().join("target").join("crate-test");
    let bin = path_without_gfortran(&dir);
    let target = dir.join("target");

    let plain = cargo_build(&bin, &target, &["--no-default-features"]);
    assert!(
        plain.status.success(),
        "cargo build --no-default-features failed without gfortran:\n{}",
        String::from_utf8_lossy(&plain.stderr)
    );

    let wanted = cargo_build(&bin, &target, &[]);
    let stderr = String::from_utf8_lossy(&wanted.stderr);
    assert!(
        !wanted.status.success(),
        "the default build succeeded without gfortran"
    );
    assert!(
        stderr.contains("the feature `fortran-modules` (on by default) compiles the Fortran modules with gfortran, which is not installed")
            && stderr.contains("--no-default-features"),
        "the default build's failure does not say what to do:\n{stderr}"
    );
}
