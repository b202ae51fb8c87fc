// The analyzer crashes on this file (debug.ExprInspection's
// clang_analyzer_crash(), enabled for this file only by .clangd).
void clang_analyzer_crash(void);

void boom(void)
{
	clang_analyzer_crash();
}
