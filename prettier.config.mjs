// Prettier, as eemeli/yaml uses it (package.json "prettier" at v2.9.0: single quotes), but with
// the semicolons and trailing commas this code has always had, so that formatting changes layout
// and nothing else.
//
// printWidth 100: the README, docs/ and the comments in fn/ are wrapped at 100 columns already
// (about nine in ten comment lines fit), and 100 keeps two files side by side in a review.
// 80 (prettier's default, yaml's) would rewrap most of the code; 120 would leave the message
// strings as long as they are today.
/** @type {import('prettier').Config} */
export default {
  printWidth: 100,
  singleQuote: true,
  semi: true,
  trailingComma: 'all',
  arrowParens: 'always',
};
