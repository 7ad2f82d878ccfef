/* aes-gcm-vaes.S's kernels in EVEX form, for CPUs with AVX512VL (CPUID.7.0:EBX[31]) and
 * AVX512BW (EBX[30], VPSHUFB on %ymm16..31) beside VAES and VPCLMULQDQ, with the opmask and
 * ZMM state enabled in XCR0 (bits 5..7): still 256-bit registers, but thirty-two of them and
 * VPTERNLOGQ. That file says how and why. */
#define GCM_VL 1
#define GCM_ENC direct_aes_gcm_enc_vaes_vl
#define GCM_DEC direct_aes_gcm_dec_vaes_vl
#include "aes-gcm-vaes.S"
