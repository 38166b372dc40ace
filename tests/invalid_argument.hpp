#pragma once
// The message of the Error(InvalidArgument) a call throws, for tests of the library's
// refusals; a test failure when it throws none, or another kind.
#include <gtest/gtest.h>

#include <string>

#include "gpufilter/error.hpp"

namespace gpufilter::testing {

template <class Call>
std::string invalid_argument_message(Call&& call) {
  try {
    call();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no Error was thrown";
  return {};
}

}  // namespace gpufilter::testing
