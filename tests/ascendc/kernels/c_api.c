/* The C kernel API's vector operations, casts, reductions, strided and
 * padded copies, from a C11 kernel: x holds 64 floats (1..64 from the
 * host); each operation's 64 results land in their own 64-float region
 * of out (layout in tests/ascendc/test_ascendc_api.c). */
#include "oacl/kernel.h"

static void put(oacl_local_t t, oacl_gm_t out, uint32_t region)
{
    oacl_data_copy_out(oacl_gm_offset(out, 64u * region), t, 64);
}

static void set_f32(oacl_local_t t, uint32_t i, float v) { memcpy(oacl_local_at(t, i), &v, sizeof v); }

__global__ __aicore__ void c_ops(GM_ADDR x, GM_ADDR out)
{
    oacl_pipe_t pipe;
    oacl_tbuf_t buf, work;
    oacl_pipe_init(&pipe);
    oacl_pipe_init_tbuf(&pipe, &buf, OACL_POS_VECCALC, 2048);
    oacl_pipe_init_tbuf(&pipe, &work, OACL_POS_VECCALC, 256);
    oacl_local_t all = oacl_tbuf_get(&buf, OACL_DT_F32); /* 512 floats */
    oacl_local_t a = all, b = oacl_local_slice(all, 64), c = oacl_local_slice(all, 128);
    oacl_local_t d = oacl_local_slice(all, 192), h = oacl_local_slice(all, 256);
    oacl_local_t w = oacl_tbuf_get(&work, OACL_DT_F32);
    oacl_gm_t gx = oacl_gm_bind(x, 64, OACL_DT_F32), go = oacl_gm_bind(out, 64 * 24, OACL_DT_F32);
    const float two = 2.0f, half_ = 0.5f, three = 3.0f, ten = 10.0f, thirty_two = 32.0f;
    oacl_data_copy_in(a, gx, 64);
    oacl_duplicate(b, &two, 64);
    oacl_sub(c, a, b, 64);
    put(c, go, 0);
    oacl_mul(c, a, b, 64);
    put(c, go, 1);
    oacl_div(c, a, b, 64);
    put(c, go, 2);
    oacl_duplicate(b, &thirty_two, 64);
    oacl_max(c, a, b, 64);
    put(c, go, 3);
    oacl_min(c, a, b, 64);
    put(c, go, 4);
    oacl_adds(c, a, &half_, 64);
    put(c, go, 5);
    oacl_muls(c, a, &three, 64);
    put(c, go, 6);
    oacl_maxs(c, a, &ten, 64);
    put(c, go, 7);
    oacl_mins(c, a, &ten, 64);
    put(c, go, 8);
    oacl_sub(d, a, b, 64); /* a - 32: -31 .. 32 */
    oacl_leaky_relu(c, d, &half_, 64);
    put(c, go, 9);
    oacl_exp(c, a, 64);
    put(c, go, 10);
    oacl_ln(c, a, 64);
    put(c, go, 11);
    oacl_abs(c, d, 64);
    put(c, go, 12);
    oacl_relu(c, d, 64);
    put(c, go, 13);
    oacl_sqrt(c, a, 64);
    put(c, go, 14);
    oacl_rsqrt(c, a, 64);
    put(c, go, 15);
    oacl_reciprocal(c, a, 64);
    put(c, go, 16);
    /* f32 -> f16 -> f32 (1..64 are exact in f16) */
    h.dtype = OACL_DT_F16;
    h.size = 128;
    oacl_cast(h, a, OACL_ROUND_NONE, 64);
    oacl_cast(c, h, OACL_ROUND_NONE, 64);
    put(c, go, 17);
    /* reductions into c[0..4] */
    oacl_local_t r = oacl_local_slice(all, 320);
    oacl_duplicate(c, &two, 64);
    oacl_reduce_sum(r, a, w, 64);
    set_f32(c, 0, *(float *)oacl_local_at(r, 0));
    oacl_reduce_max(r, a, w, 64, true);
    set_f32(c, 1, *(float *)oacl_local_at(r, 0));
    memcpy(oacl_local_at(c, 2), oacl_local_at(r, 1), 4);
    oacl_reduce_min(r, d, w, 64, true);
    set_f32(c, 3, *(float *)oacl_local_at(r, 0));
    memcpy(oacl_local_at(c, 4), oacl_local_at(r, 1), 4);
    put(c, go, 18);
    /* strided: blocks 0 and 2 of a (8 floats each) to GM blocks 0 and 2 of region 19 */
    oacl_copy_params_t sp = {2, 1, 1, 1};
    oacl_data_copy_out_strided(oacl_gm_offset(go, 64 * 19), a, sp);
    /* padded: 2 rows of 3 floats from x (GM rows 4 bytes apart), 1 left
       pad element, value -1, rows one UB block apart (plus a gap block) */
    oacl_duplicate(c, &ten, 64);
    oacl_pad_params_t pp = {2, 12, 4, 1};
    const float minus_one = -1.0f;
    oacl_data_copy_pad_in(c, gx, pp, true, 1, 0, &minus_one);
    put(c, go, 20);
    /* padded back out: the 2 rows of 4 floats (pad + data) to region 21, GM rows 8 bytes apart */
    oacl_pad_params_t po = {2, 16, 1, 8};
    oacl_data_copy_pad_out(oacl_gm_offset(go, 64 * 21), c, po);
    oacl_pipe_destroy(&pipe);
}
