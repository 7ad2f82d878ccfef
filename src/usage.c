/* The text of `accelscope --help`. */
#include <stdio.h>

#include "cmd.h"

void cmd_usage(FILE *o)
{
    fputs(
"Usage: accelscope                 interactive explorer (TUI)\n"
"       accelscope demo            stage demo: big bars, cycles through algorithms\n"
"       accelscope info [--clock] [--limits]\n"
"                                  CPU features, OpenSSL, kernel, clocks, implementations;\n"
"                                  --clock measures the core clock (~0.2 s), --limits the\n"
"                                  crypto instructions' latency/throughput and ceilings (~0.5 s)\n"
"       accelscope run [options]   measure headless, print a table, optionally write CSV\n"
"       accelscope --help | --version\n"
"\n"
"run options:\n"
"  -a, --algorithms LIST  comma list; 'all' (default) stands for aes-128-cbc aes-192-cbc\n"
"                         aes-256-cbc aes-128-ctr aes-256-ctr aes-128-gcm aes-256-gcm\n"
"                         chacha20-poly1305 md5 sha1 sha256 sha512 idea-cbc; RNGs on request:\n"
"                         rdrand rdseed getrandom rand-bytes xstore\n"
"  -s, --sizes LIST       bytes per operation, 1 to 16 MiB (k/M suffixes); CBC sizes must be\n"
"                         multiples of 16 (IDEA: 8). Default 16,64,256,1024,8192,16384\n"
"  -p, --paths LIST       c (portable C, 'no-asm'), asm (OpenSSL, crypto extensions masked),\n"
"                         hw (crypto instructions), kernel (AF_ALG), or 'all' (default)\n"
"  -i, --impl LIST        only these implementation names (see 'accelscope info')\n"
"  -x, --exclude LIST     never these implementation names\n"
"  -t, --threads N        N workers at once, each on a CPU of its own, throughput summed\n"
"                         (1 to the CPUs this process may use; default 1)\n"
"  -T, --time SECONDS     timed seconds per cell, over 5 samples (0.01 to 600; default 0.3)\n"
"  -d, --decrypt          measure the decrypt direction of ciphers and AEADs\n"
"  -c, --csv FILE|-       write one row per measurement (RFC 4180); '-' = standard output\n"
"  -f, --force            replace an existing CSV file (a regular file only)\n"
"  -q, --quiet            no progress line and no table\n"
"\n"
"One operation means what it means in 'openssl speed': a cipher transforms N bytes continuing\n"
"its chain, an AEAD seals one N-byte message (fresh nonce, 13-byte AAD, tag), a digest hashes\n"
"one N-byte message. Every implementation's output is checked against a reference before it\n"
"is timed; a mismatch is reported as 'wrong output' with no figure.\n"
"\n"
"Environment:\n"
"  ACCELSCOPE_DENY=aesni,sha,...        switch CPU features off (the project's own mask)\n"
"  ACCELSCOPE_AFALG_DRIVERS=alg:driver  also measure these kernel drivers by name\n"
"  ACCELSCOPE_AFALG_XFER=copy|zerocopy  force one AF_ALG transfer (default: by size)\n"
"  NO_COLOR                             TUI without colour\n"
"Exit status: 0 ok; 1 a cell crashed, timed out, failed or gave wrong output; 2 bad usage.\n",
        o);
}
