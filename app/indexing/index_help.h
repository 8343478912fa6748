// What quarry-index's help says besides its options: a summary, and the
// footer of examples and exit codes. The help and the manual page take
// them from here.
#ifndef QUARRY_APP_INDEXING_INDEX_HELP_H_
#define QUARRY_APP_INDEXING_INDEX_HELP_H_

namespace quarry {

extern const char kIndexSummary[];
extern const char kIndexFooter[];

}  // namespace quarry

#endif  // QUARRY_APP_INDEXING_INDEX_HELP_H_
