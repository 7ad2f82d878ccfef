/* aes-gcm-aesni.S's kernels in EVEX form, for CPUs with AVX (CPUID.1:ECX[28], for the VEX
 * multiplies and shuffles), AVX512F (CPUID.7.0:EBX[16]) and AVX512VL (EBX[31]) beside AES-NI
 * and PCLMULQDQ, with the opmask and ZMM state enabled in XCR0 (bits 5..7): still xmm
 * registers, but thirty-two of them and VPTERNLOGQ. That file says how and why. */
#define GCM_VL 1
#define GCM_ENC direct_aes_gcm_enc_vl
#define GCM_DEC direct_aes_gcm_dec_vl
#include "aes-gcm-aesni.S"
