#!/usr/bin/env python3
# Regenerates src/cli/table.rs from NVIDIA ptxas's own `--help` (documented options, help text
# verbatim) plus the hidden options the release binary accepts (listed below; found by probing
# every option name in its string table with both dash forms).
#
#   python3 src/cli/gen/gen_table.py "$(cargo run -q -p oracle --bin nvidia-tools -- bin)/ptxas"
#   cargo fmt
import os, subprocess, sys
_ptxas = sys.argv[1] if len(sys.argv) > 1 else 'ptxas'
_help = subprocess.run([_ptxas, '--help'], capture_output=True, text=True, check=True).stdout
_out_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'table.rs')
import re
lines=_help.split('\n')
i=lines.index('=======')+2
blocks=[]
cur=None
for l in lines[i:]:
    if l.startswith('--'):
        cur={'hdr':l,'body':[]}; blocks.append(cur)
    elif cur is not None:
        cur['body'].append(l)
for b in blocks:
    while b['body'] and b['body'][-1]=='': b['body'].pop()
    h=b['hdr']; j=h.index('(-')
    left=h[:j].rstrip(); right=h[j:].rstrip()
    m=re.fullmatch(r'--(\S+)(?: (.*))?',left)
    b['long']=m.group(1); b['hint']=m.group(2) or ''
    b['short']=right[2:-1]
    assert h==f"{left:<52}{right:<28}", (h,)
    body='\n'.join(b['body'])
    m=re.search(r"Default value:  '?([^'\n]*?)'?\.$",body,re.M)
    b['default']=m.group(1) if m else None
    m=re.search(r"Allowed values for this option:  (.*?)\.\n",body+'\n',re.S)
    b['allowed']=re.findall(r"[\w.]+",m.group(1).replace('\n','')) if m else []
FLAG,BOOL,INT,STR,LIST,LISTRAW='Flag','Bool','Int','Str','List','ListRaw'
kinds={'Ofast-compile':STR,'allow-expensive-optimizations':BOOL,'def-load-cache':STR,'def-store-cache':STR,'force-load-cache':STR,'force-store-cache':STR,
'device-function-maxrregcount':STR,'maxrregcount':STR,'device-stack-protector':BOOL,'fmad':BOOL,'position-independent-code':BOOL,'entry':LIST,
'gpu-name':STR,'input-as-string':LISTRAW,'machine':INT,'maxntid':LIST,'minnctapersm':INT,'opt-level':INT,'options-file':LIST,'output-file':STR,
'register-usage-level':INT,'sanitize':STR,'split-compile':INT}
hidden=[
# long, short, kind, hint, allowed, deprecated
('abi-compile','abi',STR,'<yes>',[],False),
('apply-controls','apply-controls',STR,'',[],False),
('assume-extern-functions-do-not-sync','assume-extern-functions-do-not-sync',BOOL,'<true|false>',[],False),
('blocks-are-clusters','blocks-are-clusters',BOOL,'<true|false>',[],False),
('cimm','cimm',FLAG,'',[],False),
('cloning','cloning',STR,'<yes|no>',[],False),
('compiler-stats','compilerStats',LIST,'<String>',['time','memory','phase-wise','detailed','t','m','p','d'],False),
('compiler-stats-file','compilerStatsFile',STR,'<file>',[],False),
('cuda-api-version','cuda-api-version',STR,'<major>.<minor>',[],False),
('cuda32f3056bbb','cudasw32f3056bbb',BOOL,'<true|false>',[],False),
('device-stack-protector-frame-size-threshold',None,INT,'<N>',[],False),
('device-stack-protector-size','device-stack-protector-size',INT,'<N>',[],False),
('disable-fast-video-emulation','disable-fast-video-emulation',BOOL,'<true|false>',[],False),
('disable-smem-reservation','disable-smem-reservation',BOOL,'<true|false>',[],False),
('dont-reserve-null-pointer','dont-reserve-null-pointer',FLAG,'',[],False),
('enable-extended-smem','enable-extended-smem',BOOL,'<true|false>',[],False),
('ext-desc-file','ext-desc-file',STR,'<file>',[],False),
('ext-desc-string','ext-desc-string',STR,'<string>',[],False),
('fast-compile','fc',FLAG,'',[],False),
('fastimul','fastimul',FLAG,'',[],False),
('fdcmpt','fdcmpt',FLAG,'',[],False),
('fdevice-time-trace','timeTraceFile',STR,'<file>',[],False),
('force-externals','fext',FLAG,'',[],True),
('force-rela','force-rela',FLAG,'',[],False),
('ftrace-phase-after','ftracePhaseAfter',STR,'<string>',[],False),
('jobserver','jobserver',FLAG,'',[],False),
('key','k',STR,'<string>',[],True),
('limit-fold-fp','limit-fold-fp',BOOL,'<true|false>',[],False),
('link-info','link-info',STR,'<file>',[],True),
('membermask-overlap','membermask-overlap',BOOL,'<true|false>',[],False),
('no-fastreg','no-fastreg',FLAG,'',[],False),
('no-membermask-overlap','no-membermask-overlap',BOOL,'<true|false>',[],False),
('noFwdPrg','noFwdPrg',FLAG,'',[],False),
('nv-host','nv-host',STR,'/path/to/file',[],False),
('okey','ok',INT,'<N>',[],False),
('opt-pointers','Op',FLAG,'',[],False),
('print-potentially-overlapping-membermasks','print-potentially-overlapping-membermasks',FLAG,'',[],False),
('profile-options','po',LIST,'<string>',[],False),
('ptx-length','ptxlen',INT,'<N>',[],False),
('query-controls','query-controls',STR,'<file>',[],False),
('reserve-null-pointer','reserve-null-pointer',FLAG,'',[],False),
('set-texmode-raw','set-texmode-raw',BOOL,'<true|false>',[],False),
('slr','slr',FLAG,'',[],False),
]+[(f'sw{n}',f'sw{n}',BOOL,'<true|false>',[],False) for n in ['1729687','200387803','200428197','200764156','2614554','2837879','4575628','4915215','4936628']]+[
('tool-name','tool-name',STR,'<tool name>',[],False),
('use-trace-pid','use-trace-pid',INT,'<N>',[],False),
('uumn','uumn',FLAG,'',[],False),
('verbose-tkinfo','verbose-tkinfo',BOOL,'<true|false>',[],False),
]
def ident(name):
    s=''.join(p[:1].upper()+p[1:] for p in re.split(r'[-_]',name))
    if s[0].isdigit(): s='X'+s
    return s
def rs(s): return '"'+s.replace('\\','\\\\').replace('"','\\"')+'"'
entries=[]
for b in blocks:
    entries.append(dict(long=b['long'],short=b['short'],kind=kinds.get(b['long'],FLAG),hint=b['hint'],allowed=b['allowed'],default=b['default'],help='\n'.join(b['body']),dep=False))
for (lo,sh,k,hi,al,dep) in hidden:
    entries.append(dict(long=lo,short=sh,kind=k,hint=hi,allowed=al,default=None,help=None,dep=dep))
entries.sort(key=lambda e:e['long'])
out=[]
out.append('//! The option table: every option ptxas 13.0.88 accepts, as data.\n//!\n//! Generated by `gen/gen_table.py` from `ptxas --help` (documented options, help text verbatim) plus the hidden options the\n//! release binary accepts (found by probing every option name in its string table). Invariants: long\n//! names are unique, short names are unique, the table is sorted by long name (the `--help` order), and\n//! `OptId as usize` indexes [`OPTIONS`].\n')
out.append('use super::{OptKind, OptSpec};\n')
out.append('/// Identifies one option of [`OPTIONS`]; the discriminant is the index into the table.')
out.append('#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n#[allow(missing_docs)]\npub enum OptId {')
for e in entries: out.append(f'    {ident(e["long"])},')
out.append('}\n')
out.append('/// Every option ptxas 13.0.88 accepts, sorted by long name.')
out.append('pub static OPTIONS: &[OptSpec] = &[')
for e in entries:
    out.append('    OptSpec {')
    out.append(f'        id: OptId::{ident(e["long"])},')
    out.append(f'        long: {rs(e["long"])},')
    out.append(f'        short: {"Some("+rs(e["short"])+")" if e["short"] else "None"},')
    out.append(f'        kind: OptKind::{e["kind"]},')
    out.append(f'        value_hint: {rs(e["hint"])},')
    out.append(f'        allowed: &[{", ".join(rs(a) for a in e["allowed"])}],')
    out.append(f'        default: {"Some("+rs(e["default"])+")" if e["default"] is not None else "None"},')
    if e['help'] is None: out.append('        help: None,')
    else:
        hl=e['help'].split('\n')
        if len(hl)==1:
            out.append(f'        help: Some({rs(hl[0])}),')
            out.append(f'        deprecated: {"true" if e["dep"] else "false"},')
            out.append('    },')
            continue
        out.append('        help: Some(concat!(')
        for j,l in enumerate(hl):
            out.append(f'            {rs(l + (chr(10) if j < len(hl)-1 else ""))},')
        out.append('        )),')
    out.append(f'        deprecated: {"true" if e["dep"] else "false"},')
    out.append('    },')
out.append('];')
open(_out_path,'w').write('\n'.join(out)+'\n')
print(len(entries), sum(1 for e in entries if e['help']))
