# Retargets extracted PTX to what ptxas 13.0 and the sm_90 backend take: `.version` above 9.0
# becomes 9.0, a `.target` arch above sm_90 becomes sm_90 (other target options kept). When it
# changes anything it writes a first comment line saying what, and appends "name<TAB>version
# <TAB>target" (the originals) to the file named by -v logfile.
function num(arch) { sub(/^sm_/, "", arch); sub(/[af]$/, "", arch); return arch + 0 }
{ lines[NR] = $0 }
/^[ \t]*\.version[ \t]/ && !ver { ver = $2; if (ver + 0 > 9.0) { lines[NR] = ".version 9.0"; changed = 1 } }
/^[ \t]*\.target[ \t]/ && !tgt {
  tgt = $2; sub(/,.*/, "", tgt)
  if (num(tgt) > 90) { line = $0; sub(/sm_[0-9]+[af]?/, "sm_90", line); lines[NR] = line; changed = 1 }
}
END {
  if (changed) {
    print "// ptxas-rs wild corpus: retargeted from .version " ver " .target " tgt " to what ptxas 13.0 / sm_90 take"
    print name "\t" ver "\t" tgt >> logfile
  }
  for (i = 1; i <= NR; i++) print lines[i]
}
