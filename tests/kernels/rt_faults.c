/* Kernels that break one kernel-side rule each. Only block `bad` misbehaves
 * (other blocks write 1 to out[block]), so tests can check that the fault
 * names the right block. */
#include "oacl/kernel.h"

static bool mark_good(GM_ADDR out, uint32_t bad)
{
    uint32_t idx = (uint32_t)oacl_get_block_idx();
    if (idx != bad) {
        ((__gm__ uint32_t *)out)[idx] = 1;
        return true;
    }
    return false;
}

/* The usual start: the block's pipe and one queue of `num` buffers of
 * `len` bytes (InitBuffer's own failures happen here). */
static void one_queue(oacl_pipe_t *pipe, oacl_que_t *q, oacl_position_t pos, int32_t depth, uint32_t num,
                      uint32_t len)
{
    oacl_pipe_init(pipe);
    oacl_que_init(q, pos, depth);
    oacl_pipe_init_buffer(pipe, q, num, len);
}

/* Asks for more unified buffer than the SoC has. */
__global__ __aicore__ void ub_overflow(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t q;
    one_queue(&pipe, &q, OACL_POS_VECIN, 1, 2, 128 * 1024);
}

/* Allocates a third tensor from a two-buffer queue without freeing. */
__global__ __aicore__ void alloc_exhausted(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t q;
    one_queue(&pipe, &q, OACL_POS_VECIN, 2, 2, 256);
    (void)oacl_que_alloc(&q, OACL_DT_F16);
    (void)oacl_que_alloc(&q, OACL_DT_F16);
    (void)oacl_que_alloc(&q, OACL_DT_F16);
}

/* Enqueues two tensors into a depth-1 queue. */
__global__ __aicore__ void enque_over_depth(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t q;
    one_queue(&pipe, &q, OACL_POS_VECIN, 1, 2, 256);
    oacl_que_enque(&q, oacl_que_alloc(&q, OACL_DT_F16));
    oacl_que_enque(&q, oacl_que_alloc(&q, OACL_DT_F16));
}

/* Dequeues from an empty queue. */
__global__ __aicore__ void deque_empty(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t q;
    one_queue(&pipe, &q, OACL_POS_VECOUT, 1, 1, 256);
    (void)oacl_que_deque(&q, OACL_DT_F32);
}

/* Frees the same tensor twice. */
__global__ __aicore__ void double_free(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t q;
    one_queue(&pipe, &q, OACL_POS_VECIN, 1, 1, 256);
    oacl_local_t t = oacl_que_alloc(&q, OACL_DT_F16);
    oacl_que_free(&q, t);
    oacl_que_free(&q, t);
}

/* Frees a tensor into a queue it does not belong to. */
__global__ __aicore__ void foreign_free(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t a, b;
    oacl_pipe_init(&pipe);
    oacl_que_init(&a, OACL_POS_VECIN, 1);
    oacl_que_init(&b, OACL_POS_VECIN, 1);
    oacl_pipe_init_buffer(&pipe, &a, 1, 256);
    oacl_pipe_init_buffer(&pipe, &b, 1, 256);
    oacl_que_free(&b, oacl_que_alloc(&a, OACL_DT_F16));
}

/* Allocates from a queue that never had InitBuffer. */
__global__ __aicore__ void alloc_no_buffers(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t q;
    oacl_pipe_init(&pipe);
    oacl_que_init(&q, OACL_POS_VECIN, 1);
    (void)oacl_que_alloc(&q, OACL_DT_F16);
}

/* Enqueues the same tensor twice. */
__global__ __aicore__ void enque_twice(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t q;
    one_queue(&pipe, &q, OACL_POS_VECIN, 2, 2, 256);
    oacl_local_t t = oacl_que_alloc(&q, OACL_DT_F16);
    oacl_que_enque(&q, t);
    oacl_que_enque(&q, t);
}

/* Enqueues a tensor after freeing it. */
__global__ __aicore__ void enque_freed(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t q;
    one_queue(&pipe, &q, OACL_POS_VECIN, 1, 1, 256);
    oacl_local_t t = oacl_que_alloc(&q, OACL_DT_F16);
    oacl_que_free(&q, t);
    oacl_que_enque(&q, t);
}

/* Frees a tensor that is still enqueued. */
__global__ __aicore__ void free_enqueued(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t q;
    one_queue(&pipe, &q, OACL_POS_VECIN, 1, 1, 256);
    oacl_local_t t = oacl_que_alloc(&q, OACL_DT_F16);
    oacl_que_enque(&q, t);
    oacl_que_free(&q, t);
}

/* Round robin past a buffer still in use: of three buffers, 0 and 2 stay
 * allocated and 1 is freed, so the next two allocations must return
 * buffer 1 (the cursor's buffer 0 is busy) and then fail; every good block
 * writes the buffer offsets it got (in 32-byte units) to out[8 + 2 * idx]. */
__global__ __aicore__ void alloc_skips_busy(GM_ADDR out, uint32_t bad)
{
    uint32_t idx = (uint32_t)oacl_get_block_idx();
    oacl_pipe_t pipe;
    oacl_que_t q;
    one_queue(&pipe, &q, OACL_POS_VECIN, 3, 3, 64);
    oacl_local_t b0 = oacl_que_alloc(&q, OACL_DT_F16);
    oacl_local_t b1 = oacl_que_alloc(&q, OACL_DT_F16);
    oacl_local_t b2 = oacl_que_alloc(&q, OACL_DT_F16);
    oacl_que_free(&q, b1);
    oacl_local_t again = oacl_que_alloc(&q, OACL_DT_F16);
    __gm__ uint32_t *o = (__gm__ uint32_t *)out;
    o[8 + 2 * idx] = (uint32_t)((again.addr - b0.addr) / 32);
    o[9 + 2 * idx] = (uint32_t)((b2.addr - b0.addr) / 32);
    if (idx == bad)
        (void)oacl_que_alloc(&q, OACL_DT_F16); /* all three in use */
    o[idx] = 1;
}

/* Copies 17 FP16 elements (34 bytes: not a multiple of 32). */
__global__ __aicore__ void copy_unaligned(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t q;
    one_queue(&pipe, &q, OACL_POS_VECIN, 1, 1, 256);
    oacl_data_copy_in(oacl_que_alloc(&q, OACL_DT_F16), oacl_gm_bind(out, 64, OACL_DT_F16), 17);
}

/* Copies more elements than the local tensor holds. */
__global__ __aicore__ void copy_too_big(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_que_t q;
    one_queue(&pipe, &q, OACL_POS_VECIN, 1, 1, 64);
    oacl_data_copy_in(oacl_que_alloc(&q, OACL_DT_F32), oacl_gm_bind(out, 64, OACL_DT_F32), 32);
}

/* Initialises a second pipe while the first is alive. */
__global__ __aicore__ void second_pipe(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t p1, p2;
    oacl_pipe_init(&p1);
    oacl_pipe_init(&p2);
}

/* Executes a trap. */
__global__ __aicore__ void trap_kernel(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_kernel_trap();
}

/* Adds tensors of different element types. */
__global__ __aicore__ void add_mixed_types(GM_ADDR out, uint32_t bad)
{
    if (mark_good(out, bad))
        return;
    oacl_pipe_t pipe;
    oacl_tbuf_t a, b;
    oacl_pipe_init(&pipe);
    oacl_pipe_init_tbuf(&pipe, &a, OACL_POS_VECCALC, 256);
    oacl_pipe_init_tbuf(&pipe, &b, OACL_POS_VECCALC, 256);
    oacl_local_t x = oacl_tbuf_get(&a, OACL_DT_F16);
    oacl_add(x, x, oacl_tbuf_get(&b, OACL_DT_F32), 16);
}

/* A pipe left alive at the end of a block must not leak into the next
 * block run by the same thread: every block starts with a fresh pipe. */
__global__ __aicore__ void pipe_left_alive(GM_ADDR out, uint32_t bad)
{
    (void)bad;
    oacl_pipe_t pipe;
    oacl_pipe_init(&pipe);
    ((__gm__ uint32_t *)out)[oacl_get_block_idx()] = 1;
}
