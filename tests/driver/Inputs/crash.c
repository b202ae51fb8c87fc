/* Crashes clang: krefcheck must report it and go on. */
#pragma clang __debug crash
int x;
