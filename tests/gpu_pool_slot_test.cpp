// Which workspace of the GPU pool a run takes (choose_slot, on the CPU): the GPU with the
// fewest runs in flight, and for a JPEG file for the hardware engine a GPU whose engine
// has started once any has, so that a GPU ready first is not held back by the others.
#include <gtest/gtest.h>

#include <vector>

#include "pipeline/gpu_pool.hpp"

namespace gpufilter::io::gpu_pool_slot_test {
namespace {

SlotState slot(bool free, bool started, int busy) {
  SlotState state;
  state.free = free;
  state.engine_started = started;
  state.device_busy = busy;
  return state;
}

TEST(GpuPoolSlotTest, FewestRunsInFlightFirst) {
  // Slots interleave GPUs 0 and 1; GPU 0 has 3 runs in flight, GPU 1 one.
  const std::vector<SlotState> slots{slot(false, true, 3), slot(false, true, 1), slot(true, true, 3),
                                     slot(true, true, 1)};
  EXPECT_EQ(choose_slot(slots, false), 3u);
  EXPECT_EQ(choose_slot(slots, true), 3u);
  EXPECT_EQ(choose_slot({slot(true, true, 2), slot(true, true, 2)}, false), 0u) << "ties: the first";
  EXPECT_EQ(choose_slot({slot(false, true, 0)}, false), 1u) << "none free";
}

TEST(GpuPoolSlotTest, EngineFilesGoToAStartedEngine) {
  // GPU 0's engine is ready and busier; GPU 1's is starting.
  const std::vector<SlotState> slots{slot(true, true, 5), slot(true, false, 1)};
  EXPECT_EQ(choose_slot(slots, true), 0u) << "a JPEG file goes to the ready engine";
  EXPECT_EQ(choose_slot(slots, false), 1u) << "an image decoded on the CPU goes to any GPU";
  // The ready GPU's workspaces all busy: the file waits for one rather than for the start.
  EXPECT_EQ(choose_slot({slot(false, true, 5), slot(true, false, 1)}, true), 2u);
  // No engine has started: any free workspace, its file waiting with the others.
  EXPECT_EQ(choose_slot({slot(true, false, 4), slot(true, false, 2)}, true), 1u);
}

}  // namespace
}  // namespace gpufilter::io::gpu_pool_slot_test
