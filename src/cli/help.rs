//! The texts ptxas prints on stdout: `--help` (also printed when there is no input), `--version`
//! and `--list-version`.
//!
//! `--help` is generated from [`super::OPTIONS`] in ptxas's layout: a blank line, the usage line,
//! the `Options` banner, then for each documented option (sorted by long name) a header padded to
//! columns 52 and 80 followed by its verbatim help body and a blank line. With the table generated
//! from ptxas's own output this is byte-identical to `ptxas --help`. `--version` keeps ptxas's five-line
//! shape and its `Cuda compilation tools, release 13.0, V13.0.88` line (scripts parse it) but names
//! ptxas-rs honestly.

use std::fmt::Write as _;

use super::OPTIONS;

/// The program name ptxas-rs reports in the usage line (it is a drop-in for `ptxas`).
pub const PROGRAM: &str = "ptxas";

/// The PTX ISA versions ptxas 13.0.88 accepts, as `--list-version` prints them.
pub const PTX_VERSIONS: &[&str] = &[
    "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "2.2", "2.3", "3.0", "3.1", "3.2", "4.0", "4.1", "4.2",
    "4.3", "5.0", "5.1", "6.0", "6.1", "6.2", "6.3", "6.4", "6.5", "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6",
    "7.7", "7.8", "8.0", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "9.0",
];

/// The `--help` text.
pub fn help_text() -> String {
    let mut out = format!("\nUsage  : {PROGRAM} [options] <ptx file>,...\n\nOptions\n=======\n\n");
    for spec in OPTIONS.iter() {
        let Some(body) = spec.help else { continue };
        let mut left = format!("--{}", spec.long);
        if !spec.value_hint.is_empty() {
            left.push(' ');
            left.push_str(spec.value_hint);
        }
        let right = spec.short.map(|s| format!("(-{s})")).unwrap_or_default();
        if left.len() >= 52 {
            left.push(' ');
        }
        // `write!` into a String cannot fail.
        let _ = writeln!(out, "{left:<52}{right:<28}");
        out.push_str(body);
        out.push_str("\n\n");
    }
    // ptxas ends the text with one more blank line.
    out.push('\n');
    out
}

/// The `--version` text: ptxas's five lines, identifying ptxas-rs.
pub fn version_text() -> String {
    format!(
        "ptxas: ptxas-rs {ver}, an open reimplementation of NVIDIA (R) Ptx optimizing assembler\n\
         Copyright (c) 2025 the ptxas-rs authors; licensed MIT OR Apache-2.0; not an NVIDIA product\n\
         Built on ptxas-rs {ver} (compatible with ptxas Built on Wed_Aug_20_01:55:12_PM_PDT_2025)\n\
         Cuda compilation tools, release 13.0, V13.0.88\n\
         Build ptxas-rs {ver} (compatible with cuda_13.0.r13.0/compiler.36424714_0)\n",
        ver = env!("CARGO_PKG_VERSION")
    )
}

/// The `--list-version` text: one PTX ISA version per line.
pub fn list_version_text() -> String {
    PTX_VERSIONS.iter().map(|v| format!("{v}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_shape() {
        let h = help_text();
        assert!(h.starts_with(
            "\nUsage  : ptxas [options] <ptx file>,...\n\nOptions\n=======\n\n--Ofast-compile <0|min|mid|max>"
        ));
        assert!(h.contains("\n--gpu-name <gpu name>                               (-arch)                     \n"));
        assert!(h.ends_with("        Make all warnings into errors.\n\n\n"));
        assert_eq!(h.lines().filter(|l| l.starts_with("--")).count(), 54);
        assert!(!h.contains("--sw2614554"));
    }

    #[test]
    fn version_shape() {
        let v = version_text();
        assert_eq!(v.lines().count(), 5);
        assert_eq!(v.lines().nth(3), Some("Cuda compilation tools, release 13.0, V13.0.88"));
        assert!(v.starts_with("ptxas: ") && v.contains("ptxas-rs"));
    }

    #[test]
    fn list_version_shape() {
        let l = list_version_text();
        assert!(l.starts_with("1.0\n1.1\n") && l.ends_with("8.8\n9.0\n"));
        assert_eq!(l.lines().count(), 44);
    }
}
