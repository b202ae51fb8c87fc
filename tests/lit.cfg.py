# lit configuration of the krefcheck suite.
import os
import lit.formats

config.name = "krefcheck"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.krefcheck_obj_root, "tests")

inputs = os.path.join(config.test_source_root, "Inputs")
config.substitutions.append(("%clang_cc1", config.clang + " -cc1"))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%plugin", config.krefcheck_plugin))
config.substitutions.append(("%inputs", inputs))
# %analyze runs the analyzer with the plugin and text path notes; tests add
# the checkers they exercise and the kernel header (-include).
config.substitutions.append(
    ("%analyze",
     config.clang + " -cc1 -analyze -load " + config.krefcheck_plugin +
     " -analyzer-checker=core -analyzer-output=text -I " + inputs))
# Every checker test runs against both mini kernel headers.
config.substitutions.append(("%inline", "-include " + os.path.join(inputs, "kernel-inline.h")))
config.substitutions.append(("%proto", "-include " + os.path.join(inputs, "kernel-proto.h")))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("%python", config.python))
config.available_features.add("llvm-" + config.llvm_version_major)
# -verify=expected,%vprefix: notes whose wording belongs to the analyzer core
# of one LLVM major are written v19-note{{...}} / v22-note{{...}}.
config.substitutions.append(("%vprefix", "v" + config.llvm_version_major))
config.environment["LC_ALL"] = "C"
# The krefcheck command-line tool (tools/krefcheck) and the analyzer drivers
# it is compared with (tests/driver).
config.substitutions.append(("%kc-unittest", config.krefcheck_unittest))
config.substitutions.append(("%kbuild", config.krefcheck_kbuild))
config.substitutions.append(("%krefcheck", config.krefcheck_tool))
config.substitutions.append(("%tool_scan_build", os.path.join(config.llvm_prefix, "bin", "scan-build")))
config.substitutions.append(("%tool_analyze_build", os.path.join(config.llvm_prefix, "bin", "analyze-build")))
# The clang-tidy module under the stock clang-tidy, and krefcheck-clangd
# (tests/ide).
config.substitutions.append(("%stock_clang_tidy", os.path.join(config.llvm_prefix, "bin", "clang-tidy")))
config.substitutions.append(("%tidy_module", config.krefcheck_tidy))
config.substitutions.append(("%kclangd", config.krefcheck_clangd))
# A real browser for the HTML report (tests/driver/html-browser.test):
# Debian's chromium, installed by tools/setup.sh. Without it that test is
# UNSUPPORTED, and says why here.
import shutil
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(
        ("%chromium", chromium + " --headless --no-sandbox --disable-gpu"
         " --disable-dev-shm-usage --no-first-run --hide-scrollbars"))
else:
    lit_config.note("chromium not found: tests/driver/html-browser.test is UNSUPPORTED "
                    "(tools/setup.sh installs it with apt-get install chromium)")
