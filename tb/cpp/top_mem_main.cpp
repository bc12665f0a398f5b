// Plain Verilator C++ loop (no cocotb) around tb/hdl/nvdla_pp_top_mem.v: how fast the top and the simulation
// memory simulate on their own. Built by scripts/cpp_bench.py; it plays a program the Python benchmark wrote:
//   C <seed> <rd_lat> <rd_jit> <wr_lat> <wr_jit> <stall>   memory timing (before the reset)
//   M <addr> <file>                 load a file's bytes at addr (through the public storage arrays)
//   W <addr> <data> <nposted> <timed>   CSB write (byte address); timed=1 starts the layer's clock
//   I <status_addr> <bit>           wait for intr, then for the bit in GLB S_INTR_STATUS, and clear it
//   D <addr> <size> <file>          dump memory to a file (the Python side compares it with the model)
// Numbers are hexadecimal. It prints "layer <cycles> <wall seconds> <CPU seconds>" for the first wait after a
// timed write (the process's CPU time: what a busy machine's other jobs take does not count in it).
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "Vtop.h"
#include "Vtop___024root.h"
#include "verilated.h"

namespace {

#ifndef ATOM_BYTES
#define ATOM_BYTES 8  // scripts/cpp_bench.py passes the configuration's atom (-DATOM_BYTES=8/16/32)
#endif

constexpr int PAGE_BITS = 20;
constexpr uint64_t PAGE = 1ull << PAGE_BITS;
constexpr int BYTES = ATOM_BYTES;   // the memory's word: one atom (DATA_W = ATOM * 8)
constexpr uint64_t WORDS = PAGE / BYTES;
constexpr int SLOTS = 64;

// Byte `lane` of a memory word. Verilator stores a word of up to 64 bits as an integer (QData) and a wider
// one as VlWide, an array of 32-bit EData: both are handled, so one source builds at every atom.
template <typename Word>
uint8_t word_byte(const Word& w, int lane) {
    if constexpr (std::is_integral_v<Word>) {
        return uint8_t(uint64_t(w) >> (8 * lane));
    } else {
        return uint8_t(w[lane / 4] >> (8 * (lane % 4)));
    }
}

template <typename Word>
void set_word_byte(Word& w, int lane, uint8_t value) {
    if constexpr (std::is_integral_v<Word>) {
        w = Word((uint64_t(w) & ~(0xffull << (8 * lane))) | (uint64_t(value) << (8 * lane)));
    } else {
        const int shift = 8 * (lane % 4);
        w[lane / 4] = (w[lane / 4] & ~(0xffu << shift)) | (uint32_t(value) << shift);
    }
}

// the build's memory word must be the atom's: a program written for one atom is wrong at another
static_assert(sizeof(std::remove_reference_t<decltype(std::declval<Vtop___024root>()
                  .nvdla_pp_top_mem__DOT__u_mem__DOT__store[0])>) == BYTES,
              "ATOM_BYTES differs from the width of the simulation memory's words (the top's ATOM)");

struct Sim {
    VerilatedContext ctx;
    std::unique_ptr<Vtop> top;
    Vtop___024root* r;
    uint64_t cycle = 0;

    Sim() : top(new Vtop{&ctx}), r(top->rootp) {}

    // to the next rising clock edge, evaluated (the negative edge on the way changes no state)
    void edge() {
        for (;;) {
            const bool was = r->nvdla_pp_top_mem__DOT__clk;
            ctx.time(top->nextTimeSlot());
            top->eval();
            if (!was && r->nvdla_pp_top_mem__DOT__clk) break;
        }
        ++cycle;
    }
    void cycles(int n) { for (int i = 0; i < n; ++i) edge(); }

    // ---- memory, through the public arrays (pages from the highest free slot, as tb/bfm/sim_memory.py) ----
    int slot(uint32_t page, bool allocate) {
        auto& m = *r;
        const uint64_t taken = m.nvdla_pp_top_mem__DOT__u_mem__DOT__used | m.nvdla_pp_top_mem__DOT__u_mem__DOT__py_used;
        for (int s = 0; s < SLOTS; ++s)
            if ((taken >> s & 1) && m.nvdla_pp_top_mem__DOT__u_mem__DOT__tag[s] == page) return s;
        if (!allocate) return -1;
        for (int s = SLOTS - 1; s >= 0; --s)
            if (!(taken >> s & 1)) {
                m.nvdla_pp_top_mem__DOT__u_mem__DOT__tag[s] = page;
                m.nvdla_pp_top_mem__DOT__u_mem__DOT__py_used |= 1ull << s;
                return s;
            }
        throw std::runtime_error("simulation memory full");
    }
    void write(uint32_t addr, const std::vector<uint8_t>& data) {
        for (size_t i = 0; i < data.size(); ++i) {
            const uint32_t a = addr + i;
            const int s = slot(a >> PAGE_BITS, true);
            auto& w = r->nvdla_pp_top_mem__DOT__u_mem__DOT__store[s * WORDS + ((a & (PAGE - 1)) / BYTES)];
            set_word_byte(w, int(a % BYTES), data[i]);
        }
    }
    std::vector<uint8_t> read(uint32_t addr, size_t n) {
        std::vector<uint8_t> out(n);
        for (size_t i = 0; i < n; ++i) {
            const uint32_t a = addr + i;
            const int s = slot(a >> PAGE_BITS, false);
            if (s < 0) continue;
            const auto& w = r->nvdla_pp_top_mem__DOT__u_mem__DOT__store[s * WORDS + ((a & (PAGE - 1)) / BYTES)];
            out[i] = word_byte(w, int(a % BYTES));
        }
        return out;
    }

    // ---- CSB master: one request, sampled before the edge that accepts it (as tb/bfm/csb.py) ----
    void request(uint32_t byte_addr, uint32_t data, bool write, bool nposted) {
        top->csb_req_addr = (byte_addr >> 2) & 0xffff;
        top->csb_req_wdat = data;
        top->csb_req_write = write;
        top->csb_req_nposted = nposted;
        top->csb_req_valid = 1;
        for (;;) {
            top->eval();
            const bool ready = top->csb_req_ready;
            edge();
            if (ready) break;
        }
        top->csb_req_valid = 0;
        top->eval();
    }
    void csb_write(uint32_t addr, uint32_t data, bool nposted) {
        request(addr, data, true, nposted);
        if (!nposted) return;
        for (;;) {
            const bool done = top->csb_wr_complete;
            edge();
            if (done) return;
        }
    }
    uint32_t csb_read(uint32_t addr) {
        request(addr, 0, false, false);
        for (;;) {
            const bool valid = top->csb_resp_valid;
            const uint32_t data = top->csb_resp_data;
            edge();
            if (valid) return data;
        }
    }
};

// this process's CPU time in seconds (the loop is single-threaded)
double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

std::vector<uint8_t> slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " <program>\n";
        return 2;
    }
    Sim sim;
    sim.ctx.commandArgs(argc, argv);
    auto* top = sim.top.get();
    top->rst_n = 1;
    top->csb_req_valid = 0;
    top->mem_clear = 0;
    top->eval();
    std::ifstream prog(argv[1]);
    std::string line;
    bool reset_done = false;
    uint64_t t_enable = 0;
    auto wall_enable = std::chrono::steady_clock::now();
    double cpu_enable = 0.0;
    bool timing = false;
    while (std::getline(prog, line)) {
        std::istringstream in(line);
        std::string op;
        in >> op >> std::hex;
        if (op == "C") {
            uint64_t seed, rl, rj, wl, wj, stall;
            in >> seed >> rl >> rj >> wl >> wj >> stall;
            top->mem_seed = seed; top->mem_rd_lat = rl; top->mem_rd_jit = rj;
            top->mem_wr_lat = wl; top->mem_wr_jit = wj; top->mem_stall = stall;
        } else if (!reset_done) {
            // first non-configuration line: reset as tb/bench_target.py does
            top->rst_n = 0;
            sim.cycles(3);
            top->rst_n = 1;
            sim.cycles(2);
            reset_done = true;
        }
        if (op == "M") {
            uint64_t addr;
            std::string path;
            in >> addr >> path;
            sim.write(addr, slurp(path));
        } else if (op == "W") {
            uint64_t addr, data, nposted, timed;
            in >> addr >> data >> nposted >> timed;
            sim.csb_write(addr, data, nposted);
            if (timed) {
                t_enable = sim.cycle;
                wall_enable = std::chrono::steady_clock::now();
                cpu_enable = cpu_seconds();
                timing = true;
            }
        } else if (op == "I") {
            uint64_t status_addr, bit;
            in >> status_addr >> bit;
            while (!top->intr) sim.edge();
            if (timing) {
                const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now()
                                                                  - wall_enable).count();
                std::printf("layer %llu %.6f %.6f\n", (unsigned long long)(sim.cycle - t_enable), wall,
                            cpu_seconds() - cpu_enable);
                timing = false;
            }
            for (;;) {
                const uint32_t status = sim.csb_read(status_addr);
                if (status & bit) break;
                sim.cycles(64);
                while (!top->intr) sim.edge();
            }
            sim.csb_write(status_addr, bit, true);
        } else if (op == "D") {
            uint64_t addr, size;
            std::string path;
            in >> addr >> size >> path;
            const auto data = sim.read(addr, size);
            std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data.data()), data.size());
        }
    }
    std::printf("error %d\n", int(top->mem_error));
    top->final();
    return 0;
}
