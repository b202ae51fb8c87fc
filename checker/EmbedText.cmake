# cmake -DIN=file -DOUT=file.inc -P EmbedText.cmake
# Writes the text of IN as a C++ raw string literal (for #include), so the
# plugin carries checker/kernel-model.yaml without a copy in the sources.
file(READ "${IN}" text)
if(text MATCHES "\\)KREFCHECK_TEXT\"")
  message(FATAL_ERROR "${IN} contains the raw string delimiter")
endif()
file(WRITE "${OUT}.tmp" "R\"KREFCHECK_TEXT(${text})KREFCHECK_TEXT\"\n")
file(RENAME "${OUT}.tmp" "${OUT}")
