/* aes-gcm-aesni.S's kernels in EVEX form (as aes-gcm-aesni-vl.S: AVX, AVX512F and AVX512VL
 * beside AES-NI and PCLMULQDQ, with the opmask and ZMM state enabled in XCR0) but with
 * Karatsuba products, three PCLMULQDQ a block where that form's schoolbook takes four: for
 * cores whose multiplier bounds the loop (direct_x86_gcm_xmm_kara). That file says how. */
#define GCM_VL 1
#define GCM_KARA 1
#define GCM_ENC direct_aes_gcm_enc_vlk
#define GCM_DEC direct_aes_gcm_dec_vlk
#include "aes-gcm-aesni.S"
