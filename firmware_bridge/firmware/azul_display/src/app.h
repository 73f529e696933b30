/* The display application: protocol handling, button events and refreshing the outputs. */
#ifndef AZUL_APP_H
#define AZUL_APP_H

#ifdef __cplusplus
extern "C" {
#endif

void app_init(void);
void app_poll(void); /* one pass of the main loop; sleeps until the next interrupt when idle */

#ifdef __cplusplus
}
#endif

#endif
