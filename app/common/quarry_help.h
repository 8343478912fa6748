// What quarry's and quarry serve's help say besides their options: a
// summary, and the footer of what the options alone do not tell. The help,
// the manual page and the completion all take them from here.
#ifndef QUARRY_APP_COMMON_QUARRY_HELP_H_
#define QUARRY_APP_COMMON_QUARRY_HELP_H_

namespace quarry {

extern const char kQuarrySummary[];
extern const char kQuarryFooter[];
extern const char kQueryHelp[];  // QUERY, the positional arguments
extern const char kServeSummary[];
extern const char kServeFooter[];
extern const char kAlertsSummary[];
extern const char kAlertsFooter[];

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_QUARRY_HELP_H_
