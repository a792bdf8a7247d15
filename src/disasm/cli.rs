//! `ptxas-rs disasm`'s command line: nvdisasm's option spellings, `--help`, and the input checks.
//!
//! Invariants: every option accepted changes the output as nvdisasm's option of that name does,
//! or is one whose effect is already how this listing works (`-c`, `-ndf`, said so in the help);
//! every other nvdisasm option is refused with `not supported yet` naming it, and any other
//! argument starting with `-` is refused as unknown. An input that is not a cubin is never
//! decoded: a host object is told apart by its ELF machine and the fatbin section it holds is
//! named (or its absence said).

use super::{Options, cfg};
use std::io::Write;
use std::process::ExitCode;

/// `ptxas-rs disasm --help`.
pub const HELP: &str = "\
Usage  : ptxas-rs disasm [options] <cubin file>
         ptxas-rs disasm -b <SMxy> [options] <raw instruction file>

Prints the SASS of a cubin as nvdisasm 13.0 prints it with -c (text for text),
for sm_75, sm_80, sm_86, sm_89, sm_90(a), sm_100(a) and sm_120(a).

Options (nvdisasm's spellings)
  -c,    --print-code                     Only print code sections. Only code sections are ever
                                          printed: the listing of the other sections is not
                                          supported yet, so this is the default.
  -hex,  --print-instruction-encoding     Print each instruction's encoding (two 64-bit words)
                                          after it. (--hex is accepted too.)
  -raw,  --print-raw                      Print without beautifying (tabs expanded, predicates
                                          unaligned, no encodings), as nvdisasm -raw.
  -fun,  --cuda-function-index <i,...>    Only the code sections holding the symbols with these
                                          .symtab indices (a name is accepted too, ptxas-rs only).
  -ndf,  --no-dataflow                    No dataflow analysis: ptxas-rs never runs one, so this
                                          changes nothing (nvdisasm's output is the same too).
  -b,    --binary <SMxy>                  The input is raw instruction words (16 bytes each) for
                                          SM75, SM80, SM86, SM89, SM90, SM90a, SM100, SM100a,
                                          SM120 or SM120a.
  -base, --base-address <value>           Logical address of the first raw word (with -b).
  -cfg,  --output-control-flow-graph      Print the control-flow graph of hyperblocks as Graphviz
                                          DOT, as nvdisasm -cfg.
  -bbcfg, --output-control-flow-graph-with-basic-blocks
                                          Print the basic-block control-flow graph as Graphviz
                                          DOT, as nvdisasm -bbcfg.
  -h,    --help                           Print this help.

Not supported yet: -g, -gi, -gp (line info), -poff, -plr, -lrm, -json, -novliw, -sf, -sort,
-optf, -V.

Exit status: 0 when every instruction decoded; 1 when some could not be (each is marked
<not decoded: why> and counted on stderr); 2 on bad usage or input.

Example:
  ptxas-rs -arch sm_90 k.ptx -o k.cubin && ptxas-rs disasm -c -hex k.cubin
  ptxas-rs disasm -fun 3 k.cubin
  ptxas-rs disasm -bbcfg k.cubin | dot -Tsvg > k.svg
";

/// nvdisasm options this build does not implement: (short, long).
const NOT_YET: &[(&str, &str)] = &[
    ("-g", "--print-line-info"),
    ("-gi", "--print-line-info-inline"),
    ("-gp", "--print-line-info-ptx"),
    ("-poff", "--print-instr-offsets-cfg"),
    ("-plr", "--print-life-ranges"),
    ("-lrm", "--life-range-mode"),
    ("-json", "--emit-json"),
    ("-novliw", "--no-vliw"),
    ("-sf", "--separate-functions"),
    ("-sort", "--sort-sections"),
    ("-optf", "--options-file"),
    ("-V", "--version"),
];

/// What the command line asks for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Listing options.
    pub options: Options,
    /// `-fun` entries as given (indices or names), resolved against the cubin later.
    pub functions: Option<Vec<String>>,
    /// `-b`: the raw words' arch (`SM80`).
    pub binary: Option<String>,
    /// `-base`.
    pub base: Option<u64>,
    /// `--help`.
    pub help: bool,
    /// The input file.
    pub file: String,
}

/// The value of an option: `-x v`, `-x=v` or `--xx=v`.
fn value(args: &[String], i: &mut usize, name: &str, inline: Option<&str>) -> Result<String, String> {
    if let Some(v) = inline {
        return Ok(v.to_string());
    }
    *i += 1;
    args.get(*i).cloned().ok_or_else(|| format!("option {name} needs a value"))
}

/// Reads the arguments after `disasm`.
pub fn parse(args: &[String]) -> Result<Request, String> {
    let mut r = Request::default();
    let mut files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with('-') => (n, Some(v)),
            _ => (arg.as_str(), None),
        };
        match name {
            "-h" | "--help" | "-help" => r.help = true,
            "-c" | "--print-code" => {}
            "-hex" | "--hex" | "--print-instruction-encoding" => r.options.hex = true,
            "-raw" | "-print-raw" | "--print-raw" => r.options.raw = true,
            "-ndf" | "--no-dataflow" => {}
            "-cfg" | "--output-control-flow-graph" => r.options.cfg = Some(cfg::Kind::Hyperblocks),
            "-bbcfg" | "--output-control-flow-graph-with-basic-blocks" => r.options.cfg = Some(cfg::Kind::BasicBlocks),
            "-fun" | "--cuda-function-index" | "--function" => {
                let v = value(args, &mut i, name, inline)?;
                let list: Vec<String> = v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
                if list.is_empty() {
                    return Err(format!("option {name} needs a symbol index or name"));
                }
                r.functions.get_or_insert_with(Vec::new).extend(list);
            }
            "-b" | "--binary" => r.binary = Some(value(args, &mut i, name, inline)?),
            "-base" | "--base-address" => {
                let v = value(args, &mut i, name, inline)?;
                let n = match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
                    Some(h) => u64::from_str_radix(h, 16),
                    None => v.parse(),
                };
                r.base = Some(n.map_err(|_| format!("option {name}: '{v}' is not a number"))?);
            }
            _ if let Some((s, l)) = NOT_YET.iter().find(|(s, l)| name == *s || name == *l) => {
                return Err(format!("option {s} ({l}) is not supported yet"));
            }
            _ if name.starts_with('-') && name.len() > 1 => {
                return Err(format!("unknown option '{arg}' (see ptxas-rs disasm --help)"));
            }
            _ => files.push(arg.clone()),
        }
        i += 1;
    }
    if r.help {
        return Ok(r);
    }
    if r.binary.is_some() && (r.functions.is_some() || r.options.cfg.is_some()) {
        return Err("-fun, -cfg and -bbcfg with -b (raw words) are not supported yet".into());
    }
    if r.options.cfg.is_some() && (r.options.hex || r.options.raw) {
        return Err("-hex and -raw with -cfg/-bbcfg are not supported yet".into());
    }
    if r.base.is_some() && r.binary.is_none() {
        return Err("option -base is only valid with -b (raw words)".into());
    }
    match files.as_slice() {
        [f] => r.file = f.clone(),
        [] => return Err("no input file (usage: ptxas-rs disasm [options] <cubin file>)".into()),
        more => return Err(format!("one input file expected, got {}: {}", more.len(), more.join(" "))),
    }
    Ok(r)
}

/// What a file that is not a cubin is, in words (`None`: it is an ELF for the GPU).
pub fn not_a_cubin(bytes: &[u8]) -> Option<String> {
    const EM_CUDA: u16 = 190;
    if bytes.len() >= 4 && bytes[..4] == [0x50, 0xed, 0x55, 0xba] {
        return Some("is a fatbin, not a cubin (extract its cubins with `cuobjdump -xelf all`)".into());
    }
    if bytes.len() < 20 || bytes[..4] != *b"\x7fELF" {
        return Some("is not an ELF file (a cubin is one; raw instruction words need -b SMxy)".into());
    }
    let machine = u16::from_le_bytes([bytes[18], bytes[19]]);
    if machine == EM_CUDA {
        return None;
    }
    let fatbins: Vec<String> = section_names(bytes)
        .into_iter()
        .filter(|n| matches!(n.as_str(), ".nv_fatbin" | "__nv_relfatbin" | ".nvFatBinSegment"))
        .collect();
    let holds = if fatbins.is_empty() {
        "it has no fatbin section (.nv_fatbin or __nv_relfatbin), so no GPU code".to_string()
    } else {
        format!(
            "its GPU code is in the fatbin section {}; extract the cubins with `cuobjdump -xelf all <file>` and disassemble those",
            fatbins.join(", ")
        )
    };
    Some(format!("is a host ELF object (machine {machine}), not a cubin: {holds}"))
}

/// The section names of a 64-bit little-endian ELF (empty if its tables do not read).
fn section_names(b: &[u8]) -> Vec<String> {
    let u16_at = |o: usize| b.get(o..o + 2).map(|s| u16::from_le_bytes([s[0], s[1]]) as usize);
    let u32_at = |o: usize| b.get(o..o + 4).map(|s| u32::from_le_bytes(s.try_into().unwrap()) as usize);
    let u64_at = |o: usize| b.get(o..o + 8).map(|s| u64::from_le_bytes(s.try_into().unwrap()) as usize);
    if b.get(4) != Some(&2) || b.get(5) != Some(&1) {
        return Vec::new();
    }
    let (Some(shoff), Some(shentsize), Some(shnum), Some(shstrndx)) =
        (u64_at(0x28), u16_at(0x3a), u16_at(0x3c), u16_at(0x3e))
    else {
        return Vec::new();
    };
    let header = |i: usize| shoff.checked_add(i.checked_mul(shentsize)?);
    let Some(strtab) = header(shstrndx).and_then(|h| u64_at(h + 0x18)) else { return Vec::new() };
    (0..shnum)
        .filter_map(|i| {
            let at = strtab.checked_add(u32_at(header(i)?)?)?;
            let name = b.get(at..)?.split(|&c| c == 0).next()?;
            Some(String::from_utf8_lossy(name).into_owned())
        })
        .collect()
}

/// Resolves `-fun` entries: indices stay, names become the index of the symbol of that name.
fn resolve(bytes: &[u8], entries: &[String]) -> Result<Vec<u32>, String> {
    let cubin = crate::cubin::Cubin::parse(bytes).map_err(|e| e.to_string())?;
    entries
        .iter()
        .map(|e| match e.parse::<u32>() {
            Ok(n) => Ok(n),
            Err(_) => cubin
                .symbols
                .iter()
                .find(|s| s.name == *e)
                .map(|s| s.index)
                .ok_or_else(|| format!("-fun: no symbol named '{e}'")),
        })
        .collect()
}

/// `ptxas-rs disasm ...`: the listing on stdout; exit 0 when every instruction decoded, 1 when
/// some could not be (they are marked), 2 on bad usage or input.
pub fn main(args: &[String]) -> ExitCode {
    let fail = |what: String| {
        eprintln!("ptxas-rs disasm: {what}");
        ExitCode::from(2)
    };
    let mut r = match parse(args) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    if r.help {
        print!("{HELP}");
        return ExitCode::SUCCESS;
    }
    let file = r.file.clone();
    let bytes = match std::fs::read(&file) {
        Ok(b) => b,
        Err(e) => return fail(format!("{file}: {e}")),
    };
    let result = if let Some(arch) = &r.binary {
        super::raw_listing(&bytes, arch, r.base.unwrap_or(0), &r.options)
    } else {
        if let Some(what) = not_a_cubin(&bytes) {
            return fail(format!("{file} {what}"));
        }
        if let Some(entries) = &r.functions {
            match resolve(&bytes, entries) {
                Ok(ix) => r.options.functions = Some(ix),
                Err(e) => return fail(format!("{file}: {e}")),
            }
        }
        super::render(&bytes, &r.options)
    };
    match result {
        Ok(l) => {
            let _ = std::io::stdout().lock().write_all(l.text.as_bytes());
            if l.undecoded > 0 {
                eprintln!(
                    "ptxas-rs disasm: {} of {} instructions are not decodable yet (marked <not decoded>)",
                    l.undecoded, l.instructions
                );
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(format!("{file}: {e}")),
    }
}
